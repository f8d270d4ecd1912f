/** The root entry, `idplatform`: everything of the subpath entries, but the msw handlers (msw is an optional peer). */
import { describe, expect, it } from 'vitest';
import * as auth from '../src/auth/index.js';
import * as root from '../src/index.js';
import * as management from '../src/management/index.js';
import * as redis from '../src/redis/index.js';
import * as testing from '../src/testing/index.js';

const entries = { 'idplatform/management': management, 'idplatform/auth': auth, 'idplatform/testing': testing, 'idplatform/redis': redis };

describe('idplatform', () => {
  for (const [name, entry] of Object.entries(entries)) {
    it(`re-exports every export of ${name}, the same binding`, () => {
      const exported = Object.entries(entry);
      expect(exported.length).toBeGreaterThan(2);
      for (const [member, value] of exported) expect([member, (root as Record<string, unknown>)[member]]).toEqual([member, value]);
    });
  }

  it('does not re-export the msw handlers: importing it needs no msw installed', () => {
    expect('createMswHandlers' in root).toBe(false);
  });
});
