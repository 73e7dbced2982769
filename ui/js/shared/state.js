// What both views share: the settings (what the controls and the link
// say, hash.js) and the link that holds them, and the core once it is
// ready. Each view keeps its own state (learn/state.js,
// personalize/state.js).

import {formatHash, parseHash} from "./hash.js";

// linkInvalid lists the parts of the opening link the page could not use.
export const linkInvalid = [];
export const settings = parseHash(location.hash, linkInvalid);
/** @type {OccfmCore | null} */
export let occfm = null;        // globalThis.occfm once the core is ready (ui/types/globals.d.ts)

// writeHash writes settings into the page's link (the URL hash), in place:
// no history entry.
export function writeHash() {
  const hash = formatHash(settings);
  if (hash !== location.hash) history.replaceState(null, "", hash);
}

// setCore makes core (globalThis.occfm) the one every module calls.
/** @param {OccfmCore} core */
export function setCore(core) {
  occfm = core;
}
