/** The platform's 404 message for a path outside every API it serves (e.g. a base URL without `/api/v2`). */
export const SERVICE_NOT_FOUND = 'Service not found';

/**
 * The message of a Management API error, with a hint appended when a 404 points at
 * a wrong base URL: the server said "Service not found" (with or without more after
 * it), or the base URL does not end in `/api/v2` (as every tenant's Management API
 * does; the hint suggests `{origin}/api/v2`).
 */
export function withBaseUrlHint(message: string, status: number, baseUrl: string): string {
  if (status !== 404) return message;
  const url = new URL(baseUrl);
  const endsInApiV2 = url.pathname.replace(/\/+$/, '').endsWith('/api/v2');
  // "Service not found", also with what the server appends (": https://{domain}/…").
  if (endsInApiV2 && !message.startsWith(SERVICE_NOT_FOUND)) return message;
  const suggestion = endsInApiV2 ? '' : ` (e.g. ${url.origin}/api/v2)`;
  return `${message}. Is the base URL right? The Management API lives at https://{domain}/api/v2; this client sends to ${baseUrl}${suggestion}`;
}
