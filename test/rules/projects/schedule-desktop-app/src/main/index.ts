import { app, BrowserWindow, ipcMain } from 'electron';
import { pushPendingNotes } from '../sync/push.js';

let window: BrowserWindow | undefined;

app.whenReady().then(() => {
  window = new BrowserWindow({ width: 1100, height: 720 });
  void window.loadFile('index.html');
  ipcMain.handle('notes:sync-now', () => pushPendingNotes());
  setInterval(async () => {
    const uploaded = await pushPendingNotes();
    window?.webContents.send('notes:synced', uploaded);
  }, 5 * 60_000);
});
