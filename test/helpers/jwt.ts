/** An unsigned JWT-shaped token with the given claims: enough for the client's scope pre-check, which only decodes. */
export function jwtWithClaims(claims: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}
