/**
 * The caps on reading an uploaded file (issue 18). Every read of a zip entry counts its decompressed
 * bytes against one budget, and a sheet or CSV stops at the row caps, so a small file that claims or
 * unfolds into far more work is refused instead of read.
 */

/**
 * Decompressed bytes one inspection may read, all entries together: 1 GB. An upload is at most 100 MB
 * and real spreadsheets deflate about 5–15 to 1, so a legitimate 100 MB .xlsx unfolds to well under
 * 1 GB, and 1,000,000 rows of a dozen columns is about 300–600 MB of sheet XML. Read as a stream, 1 GB
 * takes the child about 70 s of CPU and little memory; a zip bomb, which deflates up to 1000 to 1,
 * is cut there (or sooner, at the row caps).
 */
export const MAX_DECOMPRESSED_BYTES = 1_000_000_000;

/** Data rows (below the header, not blank) a workbook or CSV may have: the robots' and the estimate's bound. */
export const MAX_DATA_ROWS = 1_000_000;

/**
 * Rows of any kind a sheet or CSV may hold, blank ones included: Excel's own limit, 1,048,576. A sheet
 * of empty rows costs reading time all the same.
 */
export const MAX_SHEET_ROWS = 1_048_576;

/** Entries a zip may list in its central directory (a workbook has a few dozen). */
export const MAX_ZIP_ENTRIES = 10_000;

/** Bytes of a small zip part read whole: content types, relationships, the workbook part, the mimetype. */
export const MAX_SMALL_PART_BYTES = 16_000_000;

/**
 * How long one inspection may take before its process is killed and the file refused: 120 s. saxes
 * reads sheet XML at about 15 MB/s on the 2-core machines this runs on, so the 1 GB cap alone is
 * about 70 s of reading; the rest is headroom for a busy machine.
 */
export const INSPECTION_TIME_LIMIT_MS = 120_000;

/** V8 heap of the inspection's process (SheetJS holds a whole .xls or .ods in memory). */
export const INSPECTION_MEMORY_MB = 2_048;

/** Inspections one server process runs at once; the rest wait their turn. */
export const INSPECTION_CONCURRENCY = 2;
