export class AppServer {
  static async create(port: number): Promise<AppServer> {
    return new AppServer(port);
  }
  constructor(readonly port: number) {}
  async run(): Promise<void> {}
}
