import { umzug } from '../umzug';

export const migrate = async () => {
  await umzug.up();
};
