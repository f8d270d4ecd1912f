import { inspect } from 'node:util';

/** Every form in which the SDK sends a secret: raw, form-encoded, URI-encoded, JSON-escaped. */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, new URLSearchParams([['', secret]]).toString().slice(1), JSON.stringify(secret).slice(1, -1)]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // not URI-encodable, so never sent that way
  }
  return [...forms];
}

/** The `client_secret_basic` credentials (`base64(urlencode(id):urlencode(secret))`) as sent in `Authorization: Basic`. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  const form = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);
  return btoa(`${form(clientId)}:${form(clientSecret)}`);
}

/** Every way a logger renders a value: message, stack, String, JSON.stringify, util.inspect, and the same for each cause. */
export function renderings(value: unknown): string[] {
  const views: string[] = [];
  let current: unknown = value;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    views.push(
      safe(() => JSON.stringify(current)),
      safe(() => inspect(current, { depth: 20 })),
      safe(() => String(current)),
    );
    if (current instanceof Error) {
      views.push(current.message, current.stack ?? '');
      current = current.cause;
    } else break;
  }
  return views;
}

function safe(render: () => string | undefined): string {
  try {
    return render() ?? '';
  } catch (error) {
    return `[render failed: ${(error as Error).message}]`;
  }
}

/** The secret forms found in any rendering of `value` (empty when clean). */
export function leakedSecrets(value: unknown, secrets: readonly string[]): string[] {
  const forms = secrets.flatMap(secretForms).filter((form) => form.length >= 4);
  const views = renderings(value);
  return forms.filter((form) => views.some((view) => view.includes(form)));
}
