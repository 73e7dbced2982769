// The words for a picked file the browser could not read (pure: tested in
// node, ui/test/read-error.test.js).

// readError says why a picked file could not be read, read bytes in. A
// folder (a drop or a file chooser can give one) fails at its first byte
// with the browser's "network error"; it is a File of no type whose size
// is the folder's, 0 or a multiple of the 4,096-byte blocks of its
// entries: it is named a folder then.
export function readError(file, err, read = 0) {
  if (read === 0 && file.type === "" && file.size % 4096 === 0) {
    return `${file.name} is a folder, not a file: pick a file inside it`;
  }
  return `${file.name}: cannot read it: ${err && err.message ? err.message : err}`;
}
