// The file feeder: streams a picked file into the core in chunks, with
// backpressure (the core says how many bytes it wants). The Learn view's
// session (learn/session.js feedFile) and the Personalize view's catalog
// each stream their file through streamFile, with a feeder of their own:
// {reader, resume}, the reader of the file and the loop parked waiting.

import {CHUNK_BYTES} from "./config.js";
import {readError} from "./read-error.js";

// streamFile streams a File's raw bytes into a core session, in chunks of at
// most CHUNK_BYTES: gzip too, since the core gunzips as the command line
// does (a truncated file, trailing padding or several members read the
// same). It reads only while io.wants(); otherwise it parks in
// feeder.resume until pollFeeder sees the session ask again. It stops as
// soon as io.current() is false (a newer run took over) or io.feed(chunk)
// returns false; io.fed() follows each read, io.end() the file's end,
// io.fail(message) a read error of the File itself.
export async function streamFile(file, feeder, io) {
  let read = 0;
  try {
    const reader = file.stream().getReader();
    if (!io.current()) {
      reader.cancel().catch(() => {});
      return;
    }
    feeder.reader = reader;
    for (;;) {
      if (!io.wants()) await new Promise((resolve) => { feeder.resume = resolve; });
      if (!io.current()) return;
      const {value, done} = await reader.read();
      if (!io.current()) return;
      if (done) {
        feeder.reader = null;
        io.end();
        return;
      }
      read += value.length;
      for (let i = 0; i < value.length; i += CHUNK_BYTES) {
        if (!io.feed(value.subarray(i, i + CHUNK_BYTES))) return;
      }
      io.fed();
    }
  } catch (err) {
    if (!io.current()) return;
    io.fail(readError(file, err, read));
  }
}

// pollFeeder wakes a parked feeder when its session asks for bytes again.
export function pollFeeder(feeder, wants) {
  if (feeder.resume && wants()) {
    const resume = feeder.resume;
    feeder.resume = null;
    resume();
  }
}

// stopFeeder lets a feeder's reader go; its loop sees the new gen and ends.
export function stopFeeder(feeder) {
  feeder.reader?.cancel().catch(() => {});
  feeder.reader = null;
  const resume = feeder.resume;
  feeder.resume = null;
  resume?.();
}
