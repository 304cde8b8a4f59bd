export const mailer = {
  async sendOverdueNotice(to: string, id: string) {
    await fetch('https://mail.example/send', { method: 'POST', body: JSON.stringify({ to, id }) });
  },
  async sendRenewalNotice(to: string, id: string) {
    await fetch('https://mail.example/send', { method: 'POST', body: JSON.stringify({ to, id }) });
  },
};
