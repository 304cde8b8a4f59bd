export async function send(text: string) {
  return fetch('http://127.0.0.1:9999/sql', { method: 'POST', body: text });
}
