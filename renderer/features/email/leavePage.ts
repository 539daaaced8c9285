/**
 * The browser leaves the app for the mail provider's consent page (web OAuth). An object's method so
 * tests can spy on it: jsdom's window.location.assign can be neither spied on nor followed.
 */
export const browserPage = {
  leaveFor(url: string): void {
    window.location.assign(url);
  },
};
