import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';

@Injectable()
export class ProductViewsService {
  constructor(private readonly prisma: PrismaService) {}

  async recordView(productId: string): Promise<void> {
    const product = await this.prisma.product.findUnique({ where: { id: productId } });
    if (!product) return;
    await this.prisma.product.update({ where: { id: productId }, data: { viewCount: product.viewCount + 1 } });
  }
}
