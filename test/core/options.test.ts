import { afterEach, describe, expect, it, vi } from 'vitest';
import { runtimeName } from '../../src/core/options.js';
import { stubBrowser } from '../helpers/browser.js';

describe('runtimeName', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('names Node with its version', () => {
    expect(runtimeName()).toBe(`node/${process.versions.node}`);
  });

  it('names Bun and Deno before Node, since both also set process.versions.node', () => {
    const process = { versions: { node: '24.3.0' } };
    expect(runtimeName({ Bun: { version: '1.4.5' }, process })).toBe('bun/1.4.5');
    expect(runtimeName({ Deno: { version: { deno: '2.9.5' } }, process })).toBe('deno/2.9.5');
  });

  it('names workerd by its navigator.userAgent, also with nodejs_compat', () => {
    expect(runtimeName({ navigator: { userAgent: 'Cloudflare-Workers' } })).toBe('workerd');
    expect(runtimeName({ navigator: { userAgent: 'Cloudflare-Workers' }, process: { versions: { node: '22.0.0' } } })).toBe('workerd');
  });

  it('names nothing in a browser or in a runtime it does not know', () => {
    expect(runtimeName({ navigator: { userAgent: 'Mozilla/5.0' } })).toBeUndefined();
    stubBrowser('document', {});
    expect(runtimeName()).toBeUndefined();
  });

  it('names the runtime under a DOM registered on its globals (it keeps no navigator, or its own)', () => {
    vi.stubGlobal('document', {});
    for (const navigator of [undefined, { userAgent: 'Node.js/24' }]) {
      vi.stubGlobal('navigator', navigator);
      expect(runtimeName()).toMatch(/^node\//);
    }
  });
});
