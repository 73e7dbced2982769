// download saves blob as a file named name, through a link clicked for
// the person: the Learn view's exports and model files, Personalize's
// ratings.

export function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
