import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthApiError, AuthenticationClient, RequestValidationError } from '../../src/auth/index.js';
import { DOMAIN, ORIGIN, recordRequests, useMswServer } from '../helpers/server.js';

const server = useMswServer();
const requests = recordRequests(server);
const client = (options: object = {}) => {
  requests.length = 0;
  return new AuthenticationClient({ domain: DOMAIN, clientId: 'app', ...options });
};
const lastJson = async () => JSON.parse(await requests.at(-1)!.text()) as unknown;

describe('passwordless', () => {
  it('start sends a JSON body with the client id (and the secret of a confidential client)', async () => {
    server.use(http.post(`${ORIGIN}/passwordless/start`, () => HttpResponse.json({ _id: 'p1', email: 'ada@example.com' })));
    await expect(client().passwordless.start({ connection: 'email', email: 'ada@example.com', send: 'link' })).resolves.toMatchObject({
      _id: 'p1',
    });
    expect(await lastJson()).toEqual({ client_id: 'app', connection: 'email', email: 'ada@example.com', send: 'link' });
    expect(requests.at(-1)!.headers.get('content-type')).toContain('application/json');
    await client({ clientSecret: 'shh' }).passwordless.start({ connection: 'sms', phone_number: '+14155550100' });
    // The default is sent: without `send`, the platform would send a link, not the code `login` needs.
    expect(await lastJson()).toEqual({
      client_id: 'app',
      client_secret: 'shh',
      connection: 'sms',
      phone_number: '+14155550100',
      send: 'code',
    });
  });

  it('start names the client in the JSON body when its secret goes in a Basic header', async () => {
    server.use(http.post(`${ORIGIN}/passwordless/start`, () => HttpResponse.json({ _id: 'p1' })));
    await client({ clientSecret: 'shh', tokenEndpointAuthMethod: 'client_secret_basic' }).passwordless.start({
      connection: 'email',
      email: 'ada@example.com',
    });
    expect(await lastJson()).toEqual({ client_id: 'app', connection: 'email', email: 'ada@example.com', send: 'code' });
    expect(requests.at(-1)!.headers.get('authorization')).toBe(`Basic ${btoa('app:shh')}`);
  });

  it('start refuses a connection without its address', async () => {
    await expect(client().passwordless.start({ connection: 'sms', email: 'ada@example.com' })).rejects.toThrow(
      'connection sms takes `phone_number`',
    );
    await expect(client().passwordless.start({ connection: 'sms', phone_number: '0155' })).rejects.toThrow('E.164');
    expect(requests).toHaveLength(0);
  });

  it('start and login refuse the address of the other connection: it would be unclear where the code goes', async () => {
    const both = { email: 'ada@example.com', phone_number: '+14155550100' };
    await expect(client().passwordless.start({ connection: 'sms', ...both })).rejects.toThrow('(and no `email`)');
    await expect(client().passwordless.login({ connection: 'sms', ...both, code: '123456' })).rejects.toThrow('(and no `email`)');
    await expect(client().passwordless.login({ connection: 'email', ...both, code: '123456' })).rejects.toThrow('(and no `phone_number`)');
    await expect(client().passwordless.login({ connection: 'sms', phone_number: '0155', code: '123456' })).rejects.toThrow('E.164');
    expect(requests).toHaveLength(0);
  });

  it('login with the sms connection sends the phone number as the username', async () => {
    server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer' })));
    await client().passwordless.login({ connection: 'sms', phone_number: '+14155550100', code: '123456' });
    expect(Object.fromEntries(new URLSearchParams(await requests.at(-1)!.text()))).toMatchObject({
      realm: 'sms',
      username: '+14155550100',
    });
  });

  it.each(['ivan@example.xn--p1ai', 'first~last@example.com', 'a&b@example.com'])(
    'start sends the address %s, which a browser’s email input takes too',
    async (email) => {
      server.use(http.post(`${ORIGIN}/passwordless/start`, () => HttpResponse.json({ _id: 'p1', email })));
      await client().passwordless.start({ connection: 'email', email });
      expect(await lastJson()).toMatchObject({ email });
    },
  );

  it.each(['山田@日本.com', 'user@münchen.de', 'josé@example.com'])(
    'start and login send the internationalized address %s unchanged (RFC 6531)',
    async (email) => {
      server.use(
        http.post(`${ORIGIN}/passwordless/start`, () => HttpResponse.json({ _id: 'p1', email })),
        http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer' })),
      );
      await client().passwordless.start({ connection: 'email', email });
      expect(await lastJson()).toMatchObject({ email });
      await client().passwordless.login({ connection: 'email', email, code: '123456' });
      expect(new URLSearchParams(await requests.at(-1)!.text()).get('username')).toBe(email);
    },
  );

  it("start refuses send: 'link' with the sms connection (a magic link goes by email only), before sending", async () => {
    const start = client().passwordless.start({ connection: 'sms', phone_number: '+14155550100', send: 'link' });
    await expect(start).rejects.toBeInstanceOf(RequestValidationError);
    await expect(start).rejects.toThrow("send 'link' is for connection email only");
    expect(requests).toHaveLength(0);
  });

  it('login exchanges the code with the passwordless OTP grant', async () => {
    server.use(http.post(`${ORIGIN}/oauth/token`, () => HttpResponse.json({ access_token: 'at', token_type: 'Bearer' })));
    await client().passwordless.login({ connection: 'email', email: 'ada@example.com', code: '123456', scope: 'openid' });
    expect(Object.fromEntries(new URLSearchParams(await requests.at(-1)!.text()))).toEqual({
      grant_type: 'http://auth0.com/oauth/grant-type/passwordless/otp',
      realm: 'email',
      username: 'ada@example.com',
      otp: '123456',
      scope: 'openid',
      client_id: 'app',
    });
  });
});

describe('database', () => {
  it('signUp posts the user with the client id', async () => {
    server.use(
      http.post(`${ORIGIN}/dbconnections/signup`, () => HttpResponse.json({ _id: 'u1', email: 'ada@example.com', email_verified: false })),
    );
    const user = await client().database.signUp({
      connection: 'Users',
      email: 'ada@example.com',
      password: 'correct horse',
      user_metadata: { plan: 'pro' },
    });
    expect(user).toEqual({ _id: 'u1', email: 'ada@example.com', email_verified: false });
    expect(await lastJson()).toEqual({
      client_id: 'app',
      connection: 'Users',
      email: 'ada@example.com',
      password: 'correct horse',
      user_metadata: { plan: 'pro' },
    });
  });

  it('signUp throws AuthApiError with the platform code and description, never echoing the password', async () => {
    server.use(
      http.post(`${ORIGIN}/dbconnections/signup`, () =>
        HttpResponse.json({ code: 'invalid_password', description: 'PasswordStrengthError: "weakpass" is too weak' }, { status: 400 }),
      ),
    );
    const error = await client()
      .database.signUp({ connection: 'Users', email: 'ada@example.com', password: 'weakpass' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_password',
      errorDescription: 'PasswordStrengthError: "[REDACTED]" is too weak',
    });
  });

  it('changePassword resolves with the platform message', async () => {
    server.use(
      http.post(`${ORIGIN}/dbconnections/change_password`, () => HttpResponse.json("We've just sent you an email to reset your password.")),
    );
    await expect(client().database.changePassword({ connection: 'Users', email: 'ada@example.com' })).resolves.toContain(
      'reset your password',
    );
    expect(await lastJson()).toEqual({ client_id: 'app', connection: 'Users', email: 'ada@example.com' });
  });

  it.each([
    'nope',
    'two@@example.com',
    'sp ace@example.com',
    '山田 太郎@日本.com',
    'ada@exa\u3000mple.com',
    '@example.com',
    'ada@',
    'ada@-example.com',
    'ada@example..com',
    `ada@${'x'.repeat(64)}.com`,
    'ada\n@example.com',
  ])('refuses the malformed email %j before sending', async (email) => {
    await expect(client().database.changePassword({ connection: 'Users', email })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client().database.signUp({ connection: 'Users', email, password: 'correct horse' })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(requests).toHaveLength(0);
  });

  it.each(['ivan@example.xn--p1ai', 'first~last@example.com', 'a&b@example.com', '山田@日本.com', 'user@münchen.de', 'josé@example.com'])(
    'signUp and changePassword send the address %s (internationalized ones too, RFC 6531)',
    async (email) => {
      server.use(
        http.post(`${ORIGIN}/dbconnections/signup`, () => HttpResponse.json({ _id: 'u1', email })),
        http.post(`${ORIGIN}/dbconnections/change_password`, () => HttpResponse.json('sent')),
      );
      await expect(client().database.signUp({ connection: 'Users', email, password: 'correct horse' })).resolves.toMatchObject({ email });
      await expect(client().database.changePassword({ connection: 'Users', email })).resolves.toBe('sent');
    },
  );
});

describe('userInfo.get', () => {
  it('sends the bearer token and validates the claims', async () => {
    server.use(http.get(`${ORIGIN}/userinfo`, () => HttpResponse.json({ sub: 'user-1', email: 'ada@example.com', custom: 1 })));
    await expect(client().userInfo.get('user-access-token')).resolves.toEqual({ sub: 'user-1', email: 'ada@example.com', custom: 1 });
    expect(requests.at(-1)!.headers.get('authorization')).toBe('Bearer user-access-token');
  });

  it('throws AuthApiError on 401 without echoing the token', async () => {
    server.use(
      http.get(`${ORIGIN}/userinfo`, () =>
        HttpResponse.json({ error: 'invalid_token', error_description: 'user-access-token expired' }, { status: 401 }),
      ),
    );
    const error = await client()
      .userInfo.get('user-access-token')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, error: 'invalid_token', errorDescription: '[REDACTED] expired' });
    expect(JSON.stringify(error)).not.toContain('user-access-token');
  });

  it('reads a bearer-token error from WWW-Authenticate when the 401 has no body (RFC 6750, 3)', async () => {
    const challenge = 'Bearer realm="tenant", error="invalid_token", error_description="The access token \\"expired\\""';
    server.use(http.get(`${ORIGIN}/userinfo`, () => new HttpResponse(null, { status: 401, headers: { 'www-authenticate': challenge } })));
    const error = await client()
      .userInfo.get('user-access-token')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, error: 'invalid_token', errorDescription: 'The access token "expired"' });
    // A parameter's name inside another's quoted value is not a parameter.
    const quoted = 'Bearer realm="x, error=forged", error_description="see error=abc", error="insufficient_scope"';
    server.use(http.get(`${ORIGIN}/userinfo`, () => new HttpResponse(null, { status: 401, headers: { 'www-authenticate': quoted } })));
    const second = await client()
      .userInfo.get('user-access-token')
      .catch((caught: unknown) => caught);
    expect(second).toMatchObject({ error: 'insufficient_scope', errorDescription: 'see error=abc' });
  });

  it('refuses an empty token', async () => {
    await expect(client().userInfo.get('')).rejects.toThrow('accessToken is required');
  });
});
