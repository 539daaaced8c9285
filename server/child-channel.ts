/**
 * The parent link of one of the server's child processes (a run, an upload's inspection, the demo's
 * robots): `post` sends a message and settles once it is handed to the pipe (or at once if the server
 * is gone), and the child exits when the server goes away, since nobody is left to report to.
 */
export function parentChannel<Message>(name: string): (message: Message) => Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error(`${name} se ejecuta solo como proceso hijo del servidor`);
  process.on('disconnect', () => process.exit(1));
  return (message) =>
    new Promise<void>((resolve) => {
      if (!process.connected) return resolve();
      send(message, undefined, {}, () => resolve());
    });
}
