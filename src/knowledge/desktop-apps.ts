// Desktop app frameworks: code that runs on one user's machine, never as a replica of a service.
// An Electron app's main process (`app.whenReady()`, `BrowserWindow`, `ipcMain`) and its renderer
// run per installed copy; a ticker there (an update check, a sync with the app's server, a window
// refresh) repeats once per user, which is what it is for.

/** Modules only an Electron app imports: the framework and the libraries of its main process. */
export const DESKTOP_APP_MODULES: readonly string[] = [
  'electron',
  'electron-updater',
  'electron-store',
  'electron-log',
  'electron-log/main',
  '@electron/remote',
  '@electron/remote/main',
];

/** A dependency (or devDependency) that makes a package with an entry point (`main`) a desktop app. */
export const DESKTOP_APP_PACKAGES: readonly string[] = ['electron'];
