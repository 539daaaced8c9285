/**
 * The browser leaves the app for the mail provider's consent page (web OAuth). Its own module so tests
 * can replace it: jsdom's window.location.assign cannot be spied on or navigate.
 */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
