// A minimal Server-Sent Events reader used only to SEE the raw JSON-RPC messages of a response while the
// SDK reads the same bytes (the SDK's own parser hands us zod-parsed copies, or nothing when they fail
// its schema). Follows the WHATWG event-stream rules for `data:` / `event:` fields. Its buffers are
// bounded by the byte cap the caller enforces on the whole body.

export class SseTap {
  private readonly decoder = new TextDecoder();
  private pending = '';
  private data: string[] = [];
  private event = '';
  private sawCr = false;

  constructor(private readonly onMessage: (data: string) => void) {}

  push(chunk: Uint8Array): void {
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.feed(this.decoder.decode());
    if (this.pending) this.line(this.pending);
    this.pending = '';
    this.dispatch();
  }

  private feed(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 /* \n */ && this.sawCr) {
        // second half of a CRLF pair
        this.sawCr = false;
        start = i + 1;
        continue;
      }
      this.sawCr = false;
      if (c === 10 || c === 13) {
        this.line(this.pending + text.slice(start, i));
        this.pending = '';
        start = i + 1;
        this.sawCr = c === 13;
      }
    }
    this.pending += text.slice(start);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }

  private dispatch(): void {
    const data = this.data.join('\n');
    const event = this.event;
    this.data = [];
    this.event = '';
    if (data && (event === '' || event === 'message')) this.onMessage(data);
  }
}
