// Declaration stubs for the modules fixture outputs import that are not installed here: every
// import from them is `any`, so what the output-type-check test sees is the rewrite's own typing
// (the replica-guard calls against the real runtime types, `await` in async functions, imports).
// Modules installed in node_modules (pg, ioredis, typeorm, knex, nats, the schedulers…) keep their
// real types.
declare module '@prisma/client';
declare module 'sequelize';
declare module 'mongoose';
declare module 'mysql2/promise';
declare module 'react';
declare module '@nestjs/common';
declare module '@nestjs/core';
declare module '@nestjs/schedule';
declare module '@nestjs/typeorm';
declare module '@mikro-orm/postgresql';
declare module 'postgres-migrations';
declare module 'graphile-migrate';
