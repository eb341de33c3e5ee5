export const id = 156;
export const ids = [156];
export const modules = {

/***/ 9156:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  buildSnapshot: () => (/* reexport */ buildSnapshot),
  diffSchemas: () => (/* reexport */ diffSchemas),
  warmUpDiffer: () => (/* reexport */ warmUpDiffer)
});

// EXTERNAL MODULE: ./node_modules/@pgkit/client/dist/index.js
var dist = __webpack_require__(7660);
// EXTERNAL MODULE: ./node_modules/@pgkit/schemainspect/dist/index.js
var schemainspect_dist = __webpack_require__(1746);
// EXTERNAL MODULE: ./src/schema/catalog.ts
var catalog = __webpack_require__(3204);
;// CONCATENATED MODULE: ./src/schema/inspect.ts
/**
 * Schema snapshots of a preview database: `@pgkit/schemainspect` (a port of
 * the maintained Python schemainspect) builds them from catalog rows that
 * catalog.ts reads over the run's one session, shared with the seed loader
 * (pg-sessions.ts).
 *
 * Nearly free: schemainspect runs its ~15 catalog queries one
 * after another, a round trip each. catalog.ts sends them all as one simple-protocol
 * batch (one round trip; the server version comes from the startup
 * ParameterStatus, PostgreSQL protocol docs, "server_version" is reported at
 * startup) and we answer schemainspect's calls from those results.
 */



/**
 * The query methods schemainspect calls (`any`, `oneFirst`, …), over a `pg`
 * client. `answered` maps a query's text to rows already fetched (the batch).
 */
function queryable(client, answered = new Map()) {
    const any = async (q) => answered.get(q.sql) ?? (await client.query(q.sql, (q.values ?? []))).rows;
    const first = (row) => Object.values(row)[0];
    const maybeOne = async (q) => (await any(q))[0] ?? null;
    const one = async (q) => {
        const row = await maybeOne(q);
        if (row === null)
            throw new Error('schema inspection: a query returned no row');
        return row;
    };
    const methods = {
        query: async (q) => ({ rows: await any(q) }),
        any,
        many: any,
        maybeOne,
        one,
        oneFirst: async (q) => first(await one(q)),
        maybeOneFirst: async (q) => {
            const row = await maybeOne(q);
            return row === null ? null : first(row);
        },
        anyFirst: async (q) => (await any(q)).map(first),
        manyFirst: async (q) => (await any(q)).map(first)
    };
    return methods;
}
let lazyNames = false;
/**
 * Makes `@pgkit/client`'s `sql.raw` name its query on first read of `name`
 * instead of at once. schemainspect wraps each of its ~15 catalog queries in
 * `sql.raw` (`PostgreSQL#execute`), whose eager `name` (`nameQuery`) parses
 * the query with pgsql-ast-parser's nearley grammar to make a nickname: about
 * half the CPU of building a snapshot (`node --cpu-prof`), for a name
 * our {@link queryable} never reads. Anything that reads `name` gets the
 * same value as before. Idempotent.
 */
function nameQueriesLazily() {
    if (lazyNames)
        return;
    lazyNames = true;
    const eager = dist.sql.raw;
    dist.sql.raw = ((query, values = []) => {
        let named;
        const made = {
            sql: query,
            parse: (input) => input,
            token: 'sql',
            values,
            segments: () => [query],
            templateArgs: () => [[query]]
        };
        return Object.defineProperty(made, 'name', {
            enumerable: true,
            configurable: true,
            get: () => (named ??= eager(query, values)).name
        });
    });
}
/**
 * Builds the snapshot's objects from rows catalog.ts read: CPU only,
 * no database access, so it can run while the database changes.
 * schemainspect's calls are answered by query name (its own texts, which
 * catalog.ts read with the same texts). This is `PostgreSQL.create` without
 * its version query: the version comes with the rows, and `create` writes
 * that query with `@pgkit/client`'s `sql` tag, which names it by parsing it
 * with pgsql-ast-parser's nearley grammar (the first parse of a process:
 * about 25 ms of CPU, `node --cpu-prof`), for a name nothing reads.
 * @throws Error from schemainspect when the rows are not what it expects, or it runs a query the batch did not read
 */
async function buildSnapshot(catalog) {
    nameQueriesLazily();
    const answered = new Map();
    const offline = {
        query: () => Promise.reject(new Error('schema inspection: a catalog query outside the batch'))
    };
    // The constructor only builds the version's query texts; it reads nothing. Its type is private: `create` is the public way.
    const Inspector = schemainspect_dist.PostgreSQL;
    const snapshot = new Inspector(queryable(offline, answered), catalog.serverVersion);
    for (const [name, rows] of catalog.rows) {
        const text = snapshot[name];
        if (typeof text === 'string')
            answered.set(text, rows);
    }
    await snapshot.load_all_async();
    return snapshot;
}
/**
 * Reads and builds a whole snapshot over `client` (one round trip).
 * @throws the driver's error when a catalog query fails
 */
async function inspectOver(client, serverVersion) {
    return buildSnapshot(await readCatalog(client, serverVersion));
}

;// CONCATENATED MODULE: ./src/schema/changes.ts
/**
 * A type change that neither rewrites the table nor narrows values
 * (PostgreSQL docs, ALTER TABLE: "changing the type of an existing column
 * will normally cause the entire table to be rewritten", except binary
 * coercible widenings): varchar(n) → varchar(m ≥ n), varchar or text,
 * numeric(p,s) → numeric(p' ≥ p, s) or unconstrained numeric.
 */
function isSafeWidening(from, to) {
    if (from === to)
        return true;
    const varchar = /^character varying(?:\((\d+)\))?$/;
    const f = varchar.exec(from);
    if (f) {
        if (to === 'text')
            return true;
        const t = varchar.exec(to);
        return !!t && (!t[1] || (!!f[1] && Number(t[1]) >= Number(f[1])));
    }
    const numeric = /^numeric(?:\((\d+),(\d+)\))?$/;
    const nf = numeric.exec(from);
    const nt = numeric.exec(to);
    if (nf && nt)
        return !nt[1] || (!!nf[1] && Number(nt[1]) >= Number(nf[1]) && nt[2] === nf[2]);
    return false;
}
/** A `SET NOT NULL` is destructive only on a table with rows: classification marks it, the caller checks the rows. */
const NOT_NULL_ON_ROWS = 'adds NOT NULL to a column of a table with rows';
const tableOf = (o) => `"${String(o.schema)}"."${String(o.table_name)}"`;
const same = (a, b) => (typeof a.equals === 'function' ? a.equals(b) : JSON.stringify(a) === JSON.stringify(b));
/** Keys added, dropped and present in both, of two name → object maps. */
function keyed(before, after) {
    const b = Object.keys(before);
    const a = Object.keys(after);
    return { added: a.filter((k) => !(k in before)), dropped: b.filter((k) => !(k in after)), both: a.filter((k) => k in before) };
}
/** Columns of a table present in both snapshots. */
function columnChanges(table, before, after) {
    const out = [];
    const { added, dropped, both } = keyed(before.columns, after.columns);
    for (const c of added)
        out.push({ kind: 'column', change: 'added', table, name: c });
    for (const c of dropped)
        out.push({ kind: 'column', change: 'dropped', table, name: c, destructive: 'drops a column and its values' });
    for (const c of both) {
        const x = before.columns[c];
        const y = after.columns[c];
        const details = [];
        let destructive;
        if (x.dbtypestr !== y.dbtypestr) {
            details.push(`type ${x.dbtypestr} → ${y.dbtypestr}`);
            if (!isSafeWidening(String(x.dbtypestr), String(y.dbtypestr)))
                destructive = `changes the type from ${x.dbtypestr} to ${y.dbtypestr}, which may rewrite the table or narrow values`;
        }
        if (!!x.not_null !== !!y.not_null)
            details.push(y.not_null ? 'NOT NULL' : 'nullable');
        if ((x.default ?? null) !== (y.default ?? null))
            details.push(y.default ? `default ${y.default}` : 'no default');
        if (x.collation !== y.collation)
            details.push(`collation ${y.collation ?? 'default'}`);
        if (!!x.is_identity !== !!y.is_identity || !!x.is_identity_always !== !!y.is_identity_always)
            details.push(y.is_identity ? 'identity' : 'not identity');
        if (!!x.is_generated !== !!y.is_generated)
            details.push(y.is_generated ? 'generated' : 'not generated');
        if (details.length === 0)
            continue;
        out.push({
            kind: 'column',
            change: 'changed',
            table,
            name: c,
            destructive,
            notNull: !x.not_null && !!y.not_null,
            detail: details.join(', ')
        });
    }
    return out;
}
const TABLE_PROPS = ['rowsecurity', 'forcerowsecurity', 'partition_def', 'parent_table', 'persistence'];
/**
 * Compares two snapshots object by object.
 * @returns the changed objects, kinds in summary order; owned sequences, grants, settings and comments left out
 */
function compareSnapshots(before, after) {
    const out = [];
    const B = before;
    const A = after;
    const get = (s, k) => s[k] ?? {};
    const tables = keyed(get(B, 'tables'), get(A, 'tables'));
    const whole = new Set([...tables.added, ...tables.dropped]); // their parts are part of them
    for (const t of tables.added)
        out.push({ kind: 'table', change: 'added', name: t });
    for (const t of tables.dropped)
        out.push({ kind: 'table', change: 'dropped', name: t, destructive: 'drops a table and its rows' });
    for (const t of tables.both) {
        const x = get(B, 'tables')[t];
        const y = get(A, 'tables')[t];
        const props = TABLE_PROPS.filter((p) => JSON.stringify(x[p] ?? null) !== JSON.stringify(y[p] ?? null));
        if (props.length)
            out.push({ kind: 'table', change: 'changed', name: t, detail: props.join(', ') });
        out.push(...columnChanges(t, x, y));
    }
    // Parts of relations: a new or dropped relation's own parts are part of it.
    const relations = keyed(get(B, 'relations'), get(A, 'relations'));
    const wholeRel = new Set([...whole, ...relations.added, ...relations.dropped]);
    const constraintIndexes = new Set();
    for (const snap of [B, A])
        for (const c of Object.values(get(snap, 'constraints')))
            if (c.index)
                constraintIndexes.add(`"${String(c.schema)}"."${String(c.index)}"`);
    const parts = (kind, key, skip, dropReason) => {
        const bx = get(B, key);
        const ax = get(A, key);
        const k = keyed(bx, ax);
        // Triggers and policies are counted on a new table too; a dropped table's go with it.
        const partOfNew = (t) => (kind === 'index' || kind === 'constraint') && wholeRel.has(t);
        for (const n of k.added)
            if (!partOfNew(tableOf(ax[n])) && !skip?.(n))
                out.push({ kind, change: 'added', name: n, table: tableOf(ax[n]) });
        for (const n of k.dropped)
            if (!wholeRel.has(tableOf(bx[n])) && !skip?.(n))
                out.push({ kind, change: 'dropped', name: n, table: tableOf(bx[n]), destructive: dropReason });
        for (const n of k.both)
            if (!skip?.(n) && !same(bx[n], ax[n]))
                out.push({ kind, change: 'changed', name: n, table: tableOf(ax[n]) });
    };
    parts('index', 'indexes', (n) => constraintIndexes.has(n)); // a constraint's index is the constraint
    parts('constraint', 'constraints', undefined, 'drops a constraint that data may rely on');
    const plain = (kind, key, compare = same, skip) => {
        const bx = get(B, key);
        const ax = get(A, key);
        const k = keyed(bx, ax);
        for (const n of k.added)
            if (!skip?.(ax[n]))
                out.push({ kind, change: 'added', name: n });
        for (const n of k.dropped)
            if (!skip?.(bx[n]))
                out.push({ kind, change: 'dropped', name: n });
        for (const n of k.both)
            if (!skip?.(ax[n]) && !compare(bx[n], ax[n]))
                out.push({ kind, change: 'changed', name: n });
    };
    const definition = (x, y) => x.definition === y.definition;
    plain('view', 'views', definition);
    plain('materialized view', 'materialized_views', definition);
    plain('function', 'functions');
    parts('trigger', 'triggers');
    for (const key of ['enums', 'domains', 'composite_types'])
        plain('type', key, (x, y) => x.create_statement === y.create_statement);
    plain('sequence', 'sequences', same, (s) => !!s.table_name); // owned by a column: part of it
    parts('policy', 'rlspolicies');
    plain('extension', 'extensions');
    const order = [
        'table',
        'column',
        'index',
        'constraint',
        'view',
        'materialized view',
        'function',
        'trigger',
        'type',
        'sequence',
        'policy',
        'extension'
    ];
    // A constraint dropped and re-added under the same name is a change, not a drop: `same` already says "changed".
    return out.sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind));
}

// EXTERNAL MODULE: ./node_modules/@pgkit/migra/dist/migra.js
var migra = __webpack_require__(193);
// EXTERNAL MODULE: ./src/sql-parser.ts
var sql_parser = __webpack_require__(2687);
;// CONCATENATED MODULE: ./src/schema/render.ts
/**
 * The schema change as text for reviewers: a rendering only; the
 * summary and the destructive warnings come from the catalog comparison
 * (changes.ts).
 *
 * `@pgkit/migra` 0.6.1 writes the migration script. Two of its faults are
 * repaired here, where that is safe:
 * - `create domain … CHECK (…)` has no terminating `;` (schemainspect's
 *   InspectedDomain.create_statement): we add it;
 * - domains are created after the tables that use them (migra's
 *   add_all_changes order): we create them right after enums and sequences,
 *   before any table (a domain's base type is a built-in or an enum).
 * - PostgreSQL 17 lists a domain's NOT NULL among its constraints, so the
 *   check clause repeats it (`not null` then `NOT NULL CHECK (…)`), which
 *   would add a second NOT NULL constraint: we drop the repeat;
 * - a constraint that is NOT VALID in "after" gets `… NOT VALID not valid`
 *   and then `validate constraint` (InspectedConstraint's
 *   safer_create_statements), which fails on the rows it does not hold for,
 *   and differs from "after": we keep it NOT VALID.
 * The repaired script is then parsed with PostgreSQL's grammar
 * (`libpg-query`); when migra throws or its script still does not parse, the
 * caller shows another rendering and says why.
 */
 // its own module: the package's index also loads migra's command line

/** migra's change groups (`Migration#changes`), in the order we apply them: migra's own, with domain creations moved before tables. */
const ORDER = [
    ['schemas', { creations_only: true }],
    ['extensions', { creations_only: true, modifications: false }],
    ['extensions', { modifications_only: true, modifications: true }],
    ['collations', { creations_only: true }],
    ['enums', { creations_only: true, modifications: false }],
    ['sequences', { creations_only: true }],
    ['triggers', { drops_only: true }],
    ['rlspolicies', { drops_only: true }],
    ['non_pk_constraints', { drops_only: true }],
    ['mv_indexes', { drops_only: true }],
    ['non_table_selectable_drops', {}],
    ['pk_constraints', { drops_only: true }],
    ['non_mv_indexes', { drops_only: true }],
    ['domains', { creations_only: true }], // migra: after the tables that use them
    ['tables_only_selectables', {}],
    ['sequences', { drops_only: true }],
    ['enums', { drops_only: true, modifications: false }],
    ['extensions', { drops_only: true, modifications: false }],
    ['domains', { drops_only: true }],
    ['non_mv_indexes', { creations_only: true }],
    ['pk_constraints', { creations_only: true }],
    ['non_pk_constraints', { creations_only: true }],
    ['non_table_selectable_creations', {}],
    ['mv_indexes', { creations_only: true }],
    ['rlspolicies', { creations_only: true }],
    ['triggers', { creations_only: true }],
    ['collations', { drops_only: true }],
    ['schemas', { drops_only: true }]
];
/** A statement of migra's with its terminating `;` (migra leaves it off `create domain`). */
function terminate(statement) {
    const s = statement.trimEnd();
    return s === '' || s.endsWith(';') ? s : `${s};`;
}
/** A `create domain` of migra's without the repeated NOT NULL of PostgreSQL 17's catalog; other statements as they are. */
function dropRepeatedNotNull(statement) {
    return /^create domain /.test(statement)
        ? statement.replace(/^not null\nNOT NULL(?: |;|$)/m, (m) => `not null\n${m.slice('not null\nNOT NULL'.length).trimStart()}`)
        : statement;
}
/**
 * Statements for constraints NOT VALID in "after": `… NOT VALID not valid;`
 * becomes `… NOT VALID;`, and their `validate constraint` is left out.
 */
function keepNotValid(statements, notValid) {
    const validates = new Set(notValid.map((c) => `alter table ${c.table} validate constraint "${c.name}";`));
    return statements.filter((s) => !validates.has(s)).map((s) => s.replace(/ NOT VALID not valid;$/, ' NOT VALID;'));
}
/**
 * migra's migration from `before` to `after`, repaired (see the module doc):
 * one string per statement, in the order to run them.
 * @throws Error from migra when it cannot compare the snapshots
 */
async function migraStatements(before, after) {
    const m = await migra/* Migration */.N.create(before, after, {});
    m.set_safety(false);
    const changes = m.changes;
    for (const [group, options] of ORDER)
        m.add(changes[group].call(m.changes, options));
    const list = m.statements.array;
    const constraints = Object.values(after.constraints);
    const notValid = constraints
        .filter((c) => /\bNOT VALID$/.test(c.definition ?? ''))
        .map((c) => ({ table: `"${c.schema}"."${c.table_name}"`, name: c.name }));
    return keepNotValid(list.map((s) => dropRepeatedNotNull(terminate(s))), notValid).filter((s) => s.trim() !== '');
}
/**
 * Checks a script with PostgreSQL's grammar.
 * @throws Error (the parser's message) when it does not parse
 */
async function checkParses(script) {
    await (0,sql_parser/* loadParser */.q)();
    if (script.trim() !== '')
        (0,sql_parser/* parseSql */.e)(script);
}
const MARK = { added: '+', dropped: '-', changed: '~' };
/** The statements as diff lines: `+` creates, `-` drops, `~` anything else; each statement's lines kept together. */
function renderStatements(statements) {
    const lines = [];
    for (const s of statements) {
        const m = /^\s*(create|alter\s+table\s+\S+\s+add\b)/i.test(s) ? '+' : /^\s*(drop|alter\s+table\s+\S+\s+drop\b)/i.test(s) ? '-' : '~';
        for (const line of s.split('\n'))
            if (line.trim())
                lines.push(`${m} ${line.replace(/^ {2}/, '')}`);
    }
    return lines.join('\n');
}
/** A listing of the changed objects, one a line ("+ table "public"."items""), made from the snapshots' comparison. */
function renderListing(changes) {
    return changes
        .map((c) => `${MARK[c.change]} ${c.kind} ${c.table && !c.name.startsWith(c.table) ? `${c.table}.` : ''}${c.name}${c.detail ? ` (${c.detail})` : ''}`)
        .join('\n');
}

;// CONCATENATED MODULE: ./src/schema/diff.ts
/**
 * What a pull request does to the database's schema: two
 * schema snapshots compared object by object (changes.ts), summarised in
 * one line, with destructive changes flagged, and shown as a diff.
 *
 * Instant mode compares the schema after `seed` with the schema after
 * `seed-command` (what the PR's migrations changed). Branch mode compares the
 * new branch as created (its parent's schema) with the branch after `seed`
 * and `seed-command`, and shows the platform's own compare_schema diff
 * against the parent.
 *
 * The diff shown is, in order of preference: the platform's compare_schema
 * text (branch mode); migra's script, repaired (render.ts); a listing made
 * from the snapshots, with a note saying why migra's script is not shown.
 */



const PLURAL = {
    table: 'tables',
    column: 'columns',
    index: 'indexes',
    constraint: 'constraints',
    view: 'views',
    'materialized view': 'materialized views',
    function: 'functions',
    trigger: 'triggers',
    type: 'types',
    sequence: 'sequences',
    policy: 'policies',
    extension: 'extensions'
};
/** "2 tables added, 1 column dropped": objects, not statements, kinds in a fixed order. */
function summarise(objects) {
    const parts = [];
    for (const kind of Object.keys(PLURAL)) {
        for (const change of ['added', 'changed', 'dropped']) {
            const n = objects.filter((s) => s.kind === kind && s.change === change).length;
            if (n > 0)
                parts.push(`${n} ${n === 1 ? kind : PLURAL[kind]} ${change}`);
        }
    }
    return parts.length ? parts.join(', ') : 'no schema change';
}
/** migra's script as diff lines, or why it cannot be shown. */
async function migraRendering(before, after) {
    try {
        const statements = await migraStatements(before, after);
        try {
            await checkParses(statements.join('\n\n'));
        }
        catch (err) {
            return { note: `the generated migration script is not valid SQL (${err.message})` };
        }
        return { diff: renderStatements(statements) };
    }
    catch (err) {
        return { note: `the migration script could not be generated (${err.message})` };
    }
}
/**
 * Compares two snapshots of one database.
 * @param rowsIn returns which of the given tables (quoted names) have rows after the change
 * @param platformDiff the platform's compare_schema text, shown instead of ours when given
 * @throws what `rowsIn` throws (the caller turns it into "schema diff unavailable")
 */
async function diffSchemas(before, after, rowsIn, platformDiff) {
    const objects = compareSnapshots(before, after);
    const notNull = objects.filter((o) => o.notNull && o.table);
    const rows = await rowsIn([...new Set(notNull.map((o) => o.table))]);
    const label = (o) => (o.table && !o.name.startsWith(o.table) ? `${o.table}.${o.name}` : o.name);
    const destructive = objects.flatMap((o) => [
        ...(o.destructive ? [`${label(o)}: ${o.destructive}`] : []),
        ...(o.notNull && rows.has(o.table) ? [`${label(o)}: ${NOT_NULL_ON_ROWS}`] : [])
    ]);
    const usePlatform = platformDiff !== undefined && platformDiff.trim() !== '';
    const base = { changed: objects.length > 0 || usePlatform, objects, summary: summarise(objects), destructive };
    if (usePlatform)
        return { ...base, diff: platformDiff.trimEnd(), source: 'platform' };
    if (objects.length === 0)
        return { ...base, diff: '', source: 'migra' };
    const rendered = await migraRendering(before, after);
    if ('diff' in rendered)
        return { ...base, diff: rendered.diff, source: 'migra' };
    return { ...base, diff: renderListing(objects), source: 'listing', note: rendered.note };
}
/** Above this many catalog rows in "before", {@link warmUpDiffer} does nothing (its work grows with the schema). */
const WARM_UP_MAX_ROWS = 600;
/**
 * Runs the differ once, from an empty schema to `before`, and throws the
 * result away, so that the real comparison later finds its code compiled
 * and its lazy parts made: in a fresh process the first migra script costs
 * several times the next one (about 80 against 40 ms for 11 tables on a
 * loaded 2-core machine). Meant to run where the CPU is otherwise idle
 * (while `seed-command` runs). Does nothing for a schema of more than
 * {@link WARM_UP_MAX_ROWS} catalog rows. Never throws.
 * @param rows the rows `before` was built from (their version and size)
 */
async function warmUpDiffer(before, rows) {
    let n = 0;
    for (const list of rows.rows.values())
        n += list.length;
    if (n > WARM_UP_MAX_ROWS)
        return;
    try {
        const empty = await buildSnapshot({ serverVersion: rows.serverVersion, rows: new Map([...rows.rows.keys()].map((k) => [k, []])) });
        await migraRendering(empty, before);
    }
    catch {
        // only a warm-up
    }
}

;// CONCATENATED MODULE: ./src/schema/inspect-and-diff.ts
/**
 * The one entry that src/schema/track.ts loads on first use: the inspector
 * and the differ in a single bundle chunk (two dynamic imports made ncc put
 * the shared classifier into two chunks).
 */




/***/ })

};
