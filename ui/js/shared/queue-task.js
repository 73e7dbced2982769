// queueTask runs onTask in a task of its own, queued through p's
// MessageChannel (p: {port: null, queued: false}, its port made on first
// use); at most one is queued at a time, and it runs the onTask of the
// last call. A message task runs as soon as the browser has handled the
// input and rendering that are due, and, unlike setTimeout(0), is never
// clamped to 4 ms. The Learn and Personalize views each have their pump p;
// the model picture has its own for its steps.
export function queueTask(p, onTask) {
  p.onTask = onTask;
  if (p.queued) return;
  if (!p.port) {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      p.queued = false;
      p.onTask();
    };
    p.port = channel.port2;
  }
  p.queued = true;
  p.port.postMessage(null);
}
