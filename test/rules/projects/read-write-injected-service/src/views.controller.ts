import { DocumentsService, type DocRepository } from './documents.service.js';

export class ViewsController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly repo: DocRepository,
  ) {}

  async open(id: string): Promise<void> {
    const doc = await this.documents.current(id);
    await this.repo.update(doc.id, { views: doc.views + 1 });
  }

  async preview(id: string): Promise<void> {
    const doc = this.documents.draft(id);
    await this.repo.update(doc.id, { views: doc.views + 1 });
  }
}
