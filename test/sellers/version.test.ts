// The reference seller's version negotiation (sellers/reference/version.ts) as a pure function, against
// the resolution rule of AdCP 3.1 versioning.mdx, and the harness's own reading of that rule
// (harness/capture/version-facts.ts): both must agree on every pin.
import { describe, expect, test } from 'vitest';
import { resolvePin } from '../../harness/capture/version-facts.ts';
import { AdcpFailure } from '../../sellers/reference/adcp-error.ts';
import { DEFAULT_RELEASE, negotiateRelease, SUPPORTED_VERSIONS } from '../../sellers/reference/version.ts';

const refusal = (args: Record<string, unknown>): AdcpFailure => {
  try {
    negotiateRelease(args);
  } catch (err) {
    if (err instanceof AdcpFailure) return err;
    throw err;
  }
  throw new Error(`served ${JSON.stringify(args)}`);
};

describe('reference seller: negotiateRelease', () => {
  test('no pin → the default release; the major alone → its highest release', () => {
    expect(negotiateRelease({})).toBe(DEFAULT_RELEASE);
    expect(negotiateRelease({ adcp_major_version: 3 })).toBe('3.1');
  });

  test('exact, downshift within the major, refusals', () => {
    expect(negotiateRelease({ adcp_version: '3.0' })).toBe('3.0');
    expect(negotiateRelease({ adcp_version: '3.1', adcp_major_version: 3 })).toBe('3.1');
    expect(negotiateRelease({ adcp_version: '3.7' })).toBe('3.1');
    for (const args of [
      { adcp_version: '3.1-beta' },
      { adcp_version: '99.0' },
      { adcp_version: '2.5' },
      { adcp_major_version: 99 },
      { adcp_version: '3.1', adcp_major_version: 4 },
      { adcp_version: '4.0', adcp_major_version: 3 },
    ]) {
      const e = refusal(args);
      expect(e.body).toMatchObject({
        code: 'VERSION_UNSUPPORTED',
        recovery: 'correctable',
        details: { supported_versions: ['3.0', '3.1'] },
      });
    }
  });

  test('malformed pins are left to input validation (served at the default here)', () => {
    expect(negotiateRelease({ adcp_version: '3.1.2' })).toBe(DEFAULT_RELEASE);
    expect(negotiateRelease({ adcp_version: 31, adcp_major_version: '3' })).toBe(DEFAULT_RELEASE);
  });

  test('agrees with the harness reading of the rule on every pin the scenarios send', () => {
    for (const [pin, major] of [
      ['3.0', 3],
      ['3.1', 3],
      ['3.99', 3],
      ['3.1-beta.99', 3],
      ['99.0', 99],
      ['3.1', 4],
      ['4.0', 3],
    ] as const) {
      const expected = resolvePin([...SUPPORTED_VERSIONS], pin, major);
      const args = { adcp_version: pin, adcp_major_version: major };
      if ('serve' in expected) expect(negotiateRelease(args)).toBe(expected.serve);
      else expect(refusal(args).body.code).toBe('VERSION_UNSUPPORTED');
    }
  });
});
