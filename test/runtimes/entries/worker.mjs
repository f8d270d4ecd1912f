/**
 * The scenario as a Cloudflare Worker (workerd, bundled by esbuild the way wrangler
 * bundles): a request to the Worker runs it and answers the lines it printed, the
 * last being `N passed, M failed`. The configuration comes from the
 * `IDP_SCENARIO_CONFIG` binding (JSON text).
 */
import * as sdk from 'idplatform';
import { runScenario } from '../scenario.mjs';

export default {
  async fetch(_request, env) {
    const lines = [];
    const { failed } = await runScenario(sdk, JSON.parse(env.IDP_SCENARIO_CONFIG), (line) => lines.push(line));
    return new Response(`${lines.join('\n')}\n`, { status: failed > 0 ? 500 : 200, headers: { 'content-type': 'text/plain' } });
  },
};
