/**
 * `npm run dev` keeps the embedded database out of the project's watched files. Turbopack watches the whole
 * project directory (only its own output is ignored), and PGlite writes to its data directory all the time,
 * so with the data in `.data/` every write counted as a change and the dashboard reloaded itself several
 * times a second. `node_modules/.cache` is not watched. Imported first by scripts/dev.ts, before anything reads
 * the environment; an explicit DATA_DIR still wins.
 */
process.env.DATA_DIR ??= "node_modules/.cache/shipping-order-platform";
