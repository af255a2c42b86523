// Imported first by the page and by every worker. Zod 4 compiles object parsers with `new Function` after
// probing whether eval is allowed; under the app's CSP (no 'unsafe-eval') the probe itself is reported as a
// violation. `jitless` skips the probe and the compiled parsers: the app stays clean under a strict CSP.
import { config } from 'zod';

config({ jitless: true });
