import type { App } from './app.js';

/**
 * A context's services, made once per app and kept as long as the app lives. Surfaces and CLI
 * commands call `service(app)`; the App itself knows nothing of the contexts built on it.
 */
export const perApp = <S>(make: (app: App) => S): ((app: App) => S) => {
  const made = new WeakMap<App, S>();
  return (app) => {
    let service = made.get(app);
    if (service === undefined) {
      service = make(app);
      made.set(app, service);
    }
    return service;
  };
};
