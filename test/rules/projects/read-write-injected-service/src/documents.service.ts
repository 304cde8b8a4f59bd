export interface Doc {
  id: string;
  views: number;
}

export interface DocRepository {
  findOne(options: { where: Partial<Doc> }): Promise<Doc>;
  update(id: string, values: Partial<Doc>): Promise<void>;
}

export class DocumentsService {
  constructor(private readonly repo: DocRepository) {}

  async current(id: string): Promise<Doc> {
    return this.repo.findOne({ where: { id } });
  }

  draft(id: string): Doc {
    return { id, views: 0 };
  }
}
