// Timing and size constants of the page's learning loop and its redraws.

export const SLICE_MS = 10;            // learning time per slice (one task of the event loop)
export const CHUNK_BYTES = 1 << 20;    // at most 1 MiB per occfm.feed call
export const CHART_POINTS = 2000;      // a chart thins itself beyond this
export const CHART_INTERVAL_MS = 100;  // at most 10 chart redraws per second
export const FULL_SPEED_CHART_MS = 250; // at most 4 while the pump learns at full speed
export const VIEW_INTERVAL_MS = 100;   // rows and metrics: at most 10 redraws per second
export const TABLE_INTERVAL_MS = 250;  // the learner table and readouts: at most 4
