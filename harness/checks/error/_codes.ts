// Pure helpers of the AdCP 3.1 error rules: the vendor-code grammar (transport-errors.mdx › Seller-Specific
// Error Codes) and the RFC 6901 pointer → JSONPath-lite translation of `field` (error-handling.mdx).

/** `X_{VENDOR}_{CODE}`: VENDOR /^[A-Z][A-Z0-9]{1,19}$/, CODE /^[A-Z][A-Z0-9_]{1,39}$/ (VENDOR has no `_`, so the split is unique). */
export const VENDOR_CODE = /^X_([A-Z][A-Z0-9]{1,19})_([A-Z][A-Z0-9_]{1,39})$/;

/** Why a code is not a well-formed vendor code, or null when it is one. */
export function vendorCodeProblem(code: string): string | null {
  if (VENDOR_CODE.test(code)) return null;
  if (!code.startsWith('X_')) return 'no X_ prefix';
  const rest = code.slice(2);
  const cut = rest.indexOf('_');
  if (cut < 0) return 'no _ between {VENDOR} and {CODE}';
  const vendor = rest.slice(0, cut);
  const tail = rest.slice(cut + 1);
  if (!/^[A-Z][A-Z0-9]{1,19}$/.test(vendor)) return `{VENDOR} ${JSON.stringify(vendor.slice(0, 40))} is not /^[A-Z][A-Z0-9]{1,19}$/`;
  return `{CODE} ${JSON.stringify(tail.slice(0, 60))} is not /^[A-Z][A-Z0-9_]{1,39}$/`;
}

/** The segments of an RFC 6901 pointer (`~1` → `/`, `~0` → `~`), or null when it is not one. */
export function pointerSegments(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  const parts = pointer.slice(1).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (/~(?![01])/.test(part)) return null; // `~` not followed by 0 or 1 is not RFC 6901
    out.push(part.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return out;
}

const INDEX = /^(?:0|[1-9][0-9]*)$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * Every JSONPath-lite rendering of a pointer the harness accepts as its translation. error-handling.mdx
 * gives one example (`/packages/0/targeting` → `packages[0].targeting`): numeric segments become `[N]`,
 * names join with `.`, the root has no leading `$` or `.`. It does not say how to write a key that is
 * not an identifier (a `.`, space or `[` in it) nor a numeric key of an object, so for such a segment
 * both the dotted key and a quoted bracket (`["a.b"]`, `['a.b']`) are accepted. `isArrayAt(i)` tells
 * whether the value the segment `i` indexes is an array in the request: a numeric segment is always
 * accepted as `[N]` (the example's rule, all a seller translating the pointer alone can do), and also
 * as a key when the request has an object there. The number of renderings is bounded (at most 3 ways per unusual segment,
 * and past the fourth unusual segment only the first way).
 */
export function jsonPathLiteForms(segments: readonly string[], isArrayAt: (i: number) => boolean | undefined = () => undefined): string[] {
  let forms = [''];
  let unusual = 0;
  segments.forEach((seg, i) => {
    const ways: string[] = [];
    const dotted = (f: string): string => (f === '' ? seg : `${f}.${seg}`);
    if (INDEX.test(seg)) {
      // The text's own rule ([N]) always; the key forms too when the request shows an object there.
      ways.push(`[${seg}]`);
      if (isArrayAt(i) === false) {
        unusual++;
        ways.push('.', `["${seg}"]`, `['${seg}']`);
      }
    } else if (IDENTIFIER.test(seg)) ways.push('.');
    else {
      unusual++;
      ways.push('.', `[${JSON.stringify(seg)}]`, `['${seg.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`);
    }
    const used = unusual > 4 ? ways.slice(0, 1) : ways;
    forms = forms.flatMap((f) => used.map((w) => (w === '.' ? dotted(f) : `${f}${w}`)));
  });
  return [...new Set(forms)];
}
