/**
 * A Worker that keeps its `ManagementClient` at module scope, so that one token
 * serves the requests that follow (workerd ties each request's I/O to that
 * request). Each request lists the seeded organization's invitations and answers
 * `ok N` or the error's name and message; `?signal=MS` makes the call give up after
 * MS milliseconds (its `signal`). The configuration comes from the `IDP_SCENARIO_CONFIG`
 * binding (JSON text). Driven by `runWorkerAcrossRequests` in run.mjs.
 */
import { ManagementClient } from 'idplatform/management';

/** Built by the first request, used by every later one. */
let management;

export default {
  async fetch(request, env) {
    const config = JSON.parse(env.IDP_SCENARIO_CONFIG);
    management ??= new ManagementClient({
      baseUrl: `${config.url}/api/v2`,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      timeoutMs: 2_000,
    });
    const signalMs = new URL(request.url).searchParams.get('signal');
    try {
      const options = signalMs === null ? undefined : { signal: AbortSignal.timeout(Number(signalMs)) };
      const invitations = await management.organizations.invitations.list(config.organizationId, undefined, options);
      return new Response(`ok ${invitations.length}`);
    } catch (error) {
      return new Response(`${error?.name}: ${error?.message}`);
    }
  },
};
