// Version choice: each rule of harness/schemas/version.ts, on in-memory captures (pure functions).
import { describe, expect, test } from 'vitest';
import { chooseAdcpVersion, matchVersion, parseVersion } from '../../harness/schemas/version.ts';
import { capture, exchange } from './helpers.ts';

const SDK = ['3.0.6', '2.5.3'];
const WITH_31 = ['3.0.6', '2.5.3', '3.1.19', '3.1.2', '3.2.0-beta.5'];

describe('parseVersion / matchVersion', () => {
  test('parses release, full and prerelease spellings', () => {
    expect(parseVersion('3.1')).toEqual({ major: 3, minor: 1 });
    expect(parseVersion('v3.0.6')).toEqual({ major: 3, minor: 0, patch: 6 });
    expect(parseVersion('3.1-beta')).toEqual({ major: 3, minor: 1, prerelease: 'beta' });
    expect(parseVersion('3')).toEqual({ major: 3, minor: -1 });
    expect(parseVersion('three')).toBeUndefined();
    expect(parseVersion(3)).toBeUndefined();
  });

  test('matches by major.minor, newest stable patch first', () => {
    expect(matchVersion('3.0', SDK)).toBe('3.0.6');
    expect(matchVersion('3.0.1', SDK)).toBe('3.0.6');
    expect(matchVersion('2.5', SDK)).toBe('2.5.3');
    expect(matchVersion('3.1', SDK)).toBeUndefined();
    expect(matchVersion('3.1', WITH_31)).toBe('3.1.19');
    expect(matchVersion('3.2', WITH_31)).toBe('3.2.0-beta.5'); // only a prerelease tree exists
    expect(matchVersion('3', WITH_31)).toBe('3.2.0-beta.5');
    expect(matchVersion('nonsense', WITH_31)).toBeUndefined();
  });
});

describe('chooseAdcpVersion', () => {
  test('1. the adcp_version the seller echoes wins, capabilities first', () => {
    const c = capture({
      adcpVersion: '3.0',
      exchanges: [
        exchange('get_products', { products: [], adcp_version: '3.0' }),
        exchange('get_adcp_capabilities', { adcp_version: '3.1', adcp: { supported_versions: ['3.0'] } }),
      ],
    });
    const choice = chooseAdcpVersion(c, WITH_31);
    expect(choice).toMatchObject({ version: '3.1.19', rule: 'echoed by seller' });
    expect(choice.reason).toMatch(/^echoed by seller: adcp_version "3.1" in get_adcp_capabilities/);
  });

  test('1. an echo in any other success payload counts too', () => {
    const c = capture({ exchanges: [exchange('get_products', { products: [], adcp_version: '3.0' })] });
    expect(chooseAdcpVersion(c, WITH_31)).toMatchObject({ version: '3.0.6', rule: 'echoed by seller' });
  });

  test('1. an echo the source lacks falls through, and the reason says so', () => {
    const c = capture({ exchanges: [exchange('get_adcp_capabilities', { adcp_version: '3.1', adcp: { major_versions: [3] } })] });
    const choice = chooseAdcpVersion(c, SDK);
    expect(choice).toMatchObject({ version: '3.0.6', rule: 'capabilities' });
    expect(choice.reason).toContain('which the schema source lacks');
  });

  test('1. errors and invalid probes are not read', () => {
    const bad = exchange('get_products', { adcp_version: '3.1' }, { intent: 'invalid' });
    const err = exchange('get_products', {});
    err.outcome = { kind: 'result', result: { isError: true, structuredContent: { adcp_version: '3.1', adcp_error: { code: 'X' } } } };
    expect(chooseAdcpVersion(capture({ exchanges: [bad, err] }), WITH_31).rule).toBe('default');
  });

  test('2. the newest supported_versions entry the source has', () => {
    const c = capture({
      exchanges: [exchange('get_adcp_capabilities', { adcp: { major_versions: [3], supported_versions: ['3.0', '3.1', '3.9'] } })],
    });
    expect(chooseAdcpVersion(c, WITH_31)).toMatchObject({ version: '3.1.19', rule: 'capabilities' });
    expect(chooseAdcpVersion(c, SDK)).toMatchObject({ version: '3.0.6', rule: 'capabilities' });
  });

  test('2. major_versions only (no 3.1 field): the oldest minor of the newest major', () => {
    const c = capture({ exchanges: [exchange('get_adcp_capabilities', { adcp: { major_versions: [2, 3] } })] });
    const choice = chooseAdcpVersion(c, WITH_31);
    expect(choice).toMatchObject({ version: '3.0.6', rule: 'capabilities' });
    expect(choice.reason).toContain('major_versions');
  });

  test('2. capabilities read from the text fallback when structuredContent is absent', () => {
    const x = exchange('get_adcp_capabilities', {});
    x.outcome = {
      kind: 'result',
      result: { content: [{ type: 'text', text: JSON.stringify({ adcp: { supported_versions: ['3.1'] } }) }] },
    };
    expect(chooseAdcpVersion(capture({ exchanges: [x] }), WITH_31)).toMatchObject({ version: '3.1.19', rule: 'capabilities' });
  });

  test('3. config adcpVersion', () => {
    expect(chooseAdcpVersion(capture({ adcpVersion: '2.5' }), SDK)).toMatchObject({ version: '2.5.3', rule: 'config' });
    const missing = chooseAdcpVersion(capture({ adcpVersion: '3.1' }), SDK);
    expect(missing).toMatchObject({ version: '3.0.6', rule: 'default' });
    expect(missing.reason).toContain('config adcpVersion "3.1" is not in the schema source');
  });

  test('4. default 3.0; else the newest stable tree; else none', () => {
    expect(chooseAdcpVersion(capture(), SDK)).toMatchObject({ version: '3.0.6', rule: 'default', reason: 'default: schemas 3.0.6' });
    expect(chooseAdcpVersion(capture(), ['3.1.19', '3.2.0-beta.1'])).toMatchObject({ version: '3.1.19', rule: 'default' });
    expect(chooseAdcpVersion(capture(), [])).toMatchObject({ version: undefined, rule: 'default' });
  });

  test('hostile values never throw', () => {
    const c = capture({
      exchanges: [
        exchange(
          'get_adcp_capabilities',
          JSON.parse(
            '{"__proto__":{"adcp_version":"3.1"},"adcp":{"supported_versions":[1,null,{"x":1},"' +
              'x'.repeat(5000) +
              '"],"major_versions":"3"}}',
          ),
        ),
      ],
    });
    expect(chooseAdcpVersion(c, WITH_31)).toMatchObject({ version: '3.0.6', rule: 'default' });
  });
});
