import { Model } from 'sequelize';

declare class Asset extends Model {
  declare id: string;
  declare downloads: number;
}

export async function trackDownload(assetId: string): Promise<void> {
  const asset = await Asset.findByPk(assetId);
  if (!asset) return;
  await Asset.update({ downloads: asset.downloads + 1 }, { where: { id: assetId } });
}
