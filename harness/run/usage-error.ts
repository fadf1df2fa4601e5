// A mistake on the command line (exit 2). Its own module so option parsers can share it without
// importing each other (options.ts re-exports it: `import { UsageError } from './options.ts'` still works).
export class UsageError extends Error {}
