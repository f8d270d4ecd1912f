// `npm test`'s pretest step: what the tests need that `npm ci` does not bring. The
// dependencies of test packages with lock files of their own, and dist/ (the package
// and snippet tests check the built package). Redis is brought by test/setup/redis.ts.
import { buildIfStale } from './build-if-stale.mjs';
import { installTestDependencies } from './install-test-deps.mjs';

installTestDependencies();
await buildIfStale();
