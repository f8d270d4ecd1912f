/**
 * The scenario in a web page (headless Chromium, bundled by esbuild): the
 * configuration comes from `globalThis.IDP_SCENARIO_CONFIG` (set by the runner
 * before the page's scripts run); each line goes to the console, and the outcome
 * to `globalThis.scenarioResult`.
 */
import * as sdk from 'idplatform';
import { runScenario } from '../scenario.mjs';

globalThis.scenarioResult = runScenario(sdk, globalThis.IDP_SCENARIO_CONFIG, (line) => console.log(line));
