/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The app's version from package.json, defined by vite.config.ts. */
  readonly VITE_APP_VERSION?: string;
}
