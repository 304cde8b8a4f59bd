// require-atomic-claim in a request handler acting on the rows its request names: an admin route
// approving the one pending merchant its path names, an operator's tRPC mutation re-queueing the
// items of the state it asks for. The filter holds a value of the handler's parameters and the
// update writes none: a client asked for it once, no timer or queue runs it on every replica.
// Kept: the same read in a timer, a queue-free worker or a service method (its caller is out of
// sight), a handler whose read is picked by a constant state alone, and a claim by an actor (the
// update writes the request's user or code into the row: two clients taking one shared row).
// Also a controller known by its `(req, res)` parameters (its route registered in another module)
// and a GraphQL field's resolver, acting on what the request names — unless the update moves on the
// state the read was filtered by (a voucher read `unused`, saved `redeemed`: two scans redeem it).
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

const DRIZZLE = "import { and, eq, gt } from 'drizzle-orm';\nimport { items } from './schema';";

/** Pending enrolments the client named, rejected by an action a wrapper builds (`client.inputSchema(s).action(fn)`), under `directive`. */
const serverAction = (directive: string) =>
  lines(
    directive,
    "import { actionClient } from '../safe-action';",
    'export const rejectApplications = actionClient.inputSchema(schema).action(async ({ parsedInput, ctx }) => {',
    '  const { applicationIds } = parsedInput;',
    "  const rows = await prisma.enrolment.findMany({ where: { teamId: ctx.teamId, status: 'pending', applicationId: { in: applicationIds } } });",
    '  for (const row of rows) {',
    '    await notifyRejected(row.email);',
    "    await prisma.enrolment.update({ where: { id: row.id }, data: { status: 'rejected' } });",
    '  }',
    '});',
  );

/** A tRPC procedure re-queueing the items in the state `filter` names. */
const procedure = (filter: string) =>
  lines(
    DRIZZLE,
    "import { operatorProcedure, router } from '../trpc';",
    'export const opsRouter = router({',
    '  requeueItems: operatorProcedure',
    "    .input(z.object({ state: z.enum(['failed', 'pending']) }))",
    '    .mutation(async ({ ctx, input }) => {',
    '      const wanted = input.state;',
    `      const rows = await ctx.db.select({ id: items.id }).from(items).where(${filter});`,
    '      for (const row of rows) {',
    '        await queue.enqueue({ itemId: row.id });',
    "        await ctx.db.update(items).set({ status: 'pending' }).where(eq(items.id, row.id));",
    '      }',
    '    }),',
    '});',
  );

/** A NestJS method, with `decorator` above it, approving the waiting shop of `shopId`. */
const nestApproval = (decorator: string) =>
  lines(
    "import { Controller, Param, Put } from '@nestjs/common';",
    "@Controller('shops')",
    'export class ShopsController {',
    ...(decorator ? [`  ${decorator}`] : []),
    "  async approve(@Param('id') shopId: string) {",
    "    const shop = await this.shops.findOne({ where: { id: shopId, status: 'waiting_approval' } });",
    '    await this.mailer.send(shop.ownerEmail, "approved");',
    "    await this.shops.save({ ...shop, status: 'active' });",
    '  }',
    '}',
  );

/** An Express route activating the waiting stores of the group its path names; `data` is what the update sets. */
const expressActivation = (data: string) =>
  lines(
    "router.post('/groups/:groupId/activate', async (req, res) => {",
    '  const { groupId } = req.params;',
    "  const stores = await knex('stores').where({ group_id: groupId, status: 'waiting' });",
    '  for (const store of stores) {',
    '    await notify(store.email);',
    `    await knex('stores').where({ id: store.id }).update(${data});`,
    '  }',
    '  res.sendStatus(204);',
    '});',
  );

/** A controller whose route is registered elsewhere, clearing the active cart of the patient its body names; `change` runs before the save. */
const controller = (change: string, data: string) =>
  lines(
    'export const clearCart = async (req, res) => {',
    '  const { patientId } = req.body;',
    "  const cart = await prisma.cart.findFirst({ where: { patientId, status: 'active' } });",
    '  await prisma.cartItem.deleteMany({ where: { cartId: cart.id } });',
    `  ${change}`,
    `  await prisma.cart.update({ where: { id: cart.id }, data: ${data} });`,
    '  res.json({ ok: true });',
    '};',
  );

/** A GraphQL mutation's resolver (Pothos-style field options) recolouring the active entities its input lists. */
const resolver = (key: string) =>
  lines(
    DRIZZLE,
    'export const entityMutations = (t) => ({',
    '  recolourEntities: t.fieldWithInput({',
    '    type: [Entity],',
    '    input: { entityIds: t.input.idList(), colour: t.input.string() },',
    `    ${key}: async (_, { input }) => {`,
    "      const rows = await db.select({ id: items.id }).from(items).where(and(eq(items.id, input.entityIds), eq(items.status, 'active')));",
    '      for (const row of rows) {',
    '        await publish(row.id);',
    "        await db.update(items).set({ colour: 'red' }).where(eq(items.id, row.id));",
    '      }',
    '    },',
    '  }),',
    '});',
  );

ruleTester.run('require-atomic-claim (a request acting on what it names)', rule, {
  valid: [
    // a tRPC mutation re-queueing the items in the state its input asks for
    procedure('and(eq(items.status, wanted), gt(items.id, ctx.cursor))'),
    // a NestJS route approving the one shop its path names
    nestApproval("@Put(':id/approve')"),
    // an Express route activating the stores of the group it names
    expressActivation("{ status: 'active', activated_at: new Date() }"),
    // a Next.js route handler, raw SQL, the order named by the request's body
    lines(
      'export async function POST(request) {',
      '  const { orderId } = await request.json();',
      '  const { rows } = await pool.query("SELECT * FROM orders WHERE id = $1 AND status = \'held\'", [orderId]);',
      '  for (const order of rows) {',
      '    await releaseStock(order);',
      '    await pool.query("UPDATE orders SET status = \'released\' WHERE id = $1", [order.id]);',
      '  }',
      '  return Response.json({ ok: true });',
      '}',
    ),
    // a server action built by a wrapper library: the exported value answers a form's submit
    serverAction("'use server';"),
    // a controller known by its (req, res) parameters, on the cart its request names
    controller('', '{ subtotal: 0, discount: 0 }'),
    // a GraphQL field's resolver, on the entities its input lists
    resolver('resolve'),
    // a server action: the module's exports answer a form's submit
    lines(
      "'use server';",
      'export async function retryExport(exportId) {',
      "  const job = await prisma.exportJob.findFirst({ where: { id: exportId, status: 'failed' } });",
      '  await runExport(job);',
      "  await prisma.exportJob.update({ where: { id: job.id }, data: { status: 'done' } });",
      '}',
    ),
  ],
  invalid: [
    // the same controller moving the cart's state on: in the update…
    claim(controller('', "{ status: 'cleared' }"), 'findFirst', 'status', 'prisma.cartItem.deleteMany('),
    // …or on the row before it
    claim(controller("cart.status = 'cleared';", '{ subtotal: 0 }'), 'findFirst', 'status', 'prisma.cartItem.deleteMany('),
    // the same function under a key no GraphQL server calls
    claim(resolver('run'), 'select', 'status', 'db.update('),
    // the same wrapper outside a 'use server' module: an ordinary call, its caller out of sight
    claim(serverAction(''), 'findMany', 'status', 'prisma.enrolment.update('),
    // the same read picked by a constant state alone: a route doing a worker's job
    claim(procedure("eq(items.status, 'failed')"), 'select', 'status', 'ctx.db.update('),
    // the same method without a route decorator: a service method, whose caller is out of sight
    claim(nestApproval(''), 'findOne', 'status', 'this.shops.save('),
    // the update writes the request's user into the row: a claim by an actor
    claim(expressActivation("{ status: 'active', activated_by: req.user.id }"), 'where', 'status', "knex('stores').where("),
    // a single-use invitation redeemed by code: two invitees take the one row
    claim(
      lines(
        "app.post('/invitations/redeem', async (req, res) => {",
        "  const invitation = await prisma.invitation.findFirst({ where: { code: req.body.code, status: 'unclaimed' } });",
        '  await grantCredits(req.user.id, invitation.credits);',
        "  await prisma.invitation.update({ where: { id: invitation.id }, data: { status: 'claimed', inviteeId: req.user.id } });",
        '  res.json({ ok: true });',
        '});',
      ),
      'findFirst',
      'status',
      'prisma.invitation.update(',
    ),
    // the same shape in a timer: a worker on every replica
    claim(
      lines(
        'setInterval(async () => {',
        "  const stores = await knex('stores').where({ group_id: config.groupId, status: 'waiting' });",
        '  for (const store of stores) {',
        '    await notify(store.email);',
        "    await knex('stores').where({ id: store.id }).update({ status: 'active' });",
        '  }',
        '}, 60_000);',
      ),
      'where',
      'status',
      "knex('stores').where(",
    ),
    // a path-less registration is no route: `queue.all(handler)`-style
    claim(
      lines(
        'worker.post(async (groupId) => {',
        "  const stores = await knex('stores').where({ group_id: groupId, status: 'waiting' });",
        '  for (const store of stores) {',
        '    await notify(store.email);',
        "    await knex('stores').where({ id: store.id }).update({ status: 'active' });",
        '  }',
        '});',
      ),
      'where',
      'status',
      "knex('stores').where(",
    ),
  ],
});
