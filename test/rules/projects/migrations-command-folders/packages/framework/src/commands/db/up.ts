import { db } from '../../database';

// `acme db:up`: the framework's own command, typed by an operator.
export default async function up({ all }: { all: boolean }) {
  const [batch, files] = await db.migrate.latest();
  console.log(`batch ${batch}: ${files.length} migrations${all ? ' (all)' : ''}`);
}
