import { Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { Cart } from './cart.entity';

@Injectable()
export class CartCleanupTask {
  constructor(@InjectRepository(Cart) private readonly carts: Repository<Cart>) {}

  @Cron('0 0 * * *', { name: 'close-stale-carts', timeZone: 'UTC' })
  async closeStaleCarts() {
    const cutoff = new Date(Date.now() - 7 * 24 * 3600 * 1000);
    await this.carts.update({ updatedAt: LessThan(cutoff), status: 'open' }, { status: 'abandoned' });
  }
}
