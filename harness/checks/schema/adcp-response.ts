// schema.adcp-response — the payload a conformant client extracts validates against the official AdCP
// response schema of that task, at the AdCP version the seller serves. When the schemas for that version
// are missing or the schema source could not be read, the rule is untested (and the reason says how to
// supply them), never passed.
import { defineCheck, untested } from '../check.ts';
import { payloadOrVerdict } from '../views.ts';
import { schemaVerdict } from './_failure.ts';

const SUPPLY = 'supply the AdCP schemas of the version the seller serves with --schemas DIR|URL';

/** The reason, with how to supply schemas unless it already says so. */
const withHint = (reason: string): string => (reason.includes('--schemas') ? reason : `${reason} (${SUPPLY})`);

export default defineCheck({
  id: 'schema.adcp-response',
  scope: 'exchange',
  severity: 'MUST',
  live: false,
  title: 'the extracted payload validates against the official AdCP response schema of that task',
  spec: {
    label: 'AdCP response schemas (<task>-response.json, draft-07) at the version the seller serves',
    url: 'https://adcontextprotocol.org/schemas/',
  },
  fix: 'answer with what the task\'s AdCP response schema requires, with its types and enums (e.g. list_creative_formats: `{"formats":[…]}`)',
  judge(x, ctx) {
    const p = payloadOrVerdict(x);
    if ('verdict' in p) return p.verdict;
    if (!ctx.schemas) return untested(withHint('no schema service: AdCP response schemas were not loaded'));
    const answer = ctx.schemas.validateAdcpResponse(x.tool, p.data);
    if ('skip' in answer) return untested(withHint(answer.skip));
    return schemaVerdict(p.pointer, answer);
  },
});
