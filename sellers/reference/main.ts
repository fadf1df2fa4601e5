// Entry of the reference seller process (sellers/reference-seller.js loads it, compiled or through tsx).
import { runSeller } from './run-seller.ts';

runSeller(process.argv.slice(2));
