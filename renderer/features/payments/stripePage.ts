/**
 * The browser leaves the app for Stripe's hosted page (checkout or card setup), which comes back to
 * /payments?pago=… or ?tarjeta=…. An object's method so tests can spy on it: jsdom's
 * window.location.assign can be neither spied on nor followed.
 */
export const stripePage = {
  open(url: string): void {
    window.location.assign(url);
  },
};
