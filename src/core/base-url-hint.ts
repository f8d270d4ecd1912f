/** The platform's 404 message for a path outside every API it serves (e.g. a base URL without `/api/v2`). */
export const SERVICE_NOT_FOUND = 'Service not found';

/**
 * The message of a Management API error, with a hint appended when a 404 points at
 * a wrong base URL: the server said "Service not found", or the base URL does not
 * end in `/api/v2` (as every tenant's Management API does).
 */
export function withBaseUrlHint(message: string, status: number, baseUrl: string): string {
  if (status !== 404) return message;
  const endsInApiV2 = new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith('/api/v2');
  if (endsInApiV2 && message !== SERVICE_NOT_FOUND) return message;
  const suggestion = endsInApiV2 ? '' : ` (e.g. ${baseUrl.replace(/\/+$/, '')}/api/v2)`;
  return `${message}. Is the base URL right? The Management API lives at https://{domain}/api/v2; this client sends to ${baseUrl}${suggestion}`;
}
