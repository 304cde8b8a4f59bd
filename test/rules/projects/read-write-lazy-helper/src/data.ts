export interface Repository<T> {
  findOneBy(where: Partial<T>): Promise<T | null>;
  update(criteria: Partial<T>, values: Partial<T>): Promise<unknown>;
}

export interface Member {
  id: string;
  points: number;
  seenAt: Date | null;
}

export declare const members: Repository<Member>;
