/*
** pgcat/rel-empty.c — the catalogs of objects starq never has: triggers,
** row-security policies, extended statistics and publications. Each is
** a relation with PostgreSQL 15's columns and no rows, so that the
** queries psql's \d NAME sends about them run through the planner like
** any other and find nothing, as PostgreSQL does for a table that has
** none of these.
**
** pg_trigger is empty although PostgreSQL has internal triggers for each
** foreign key: every client filters out tgisinternal rows.
**
** INTERFACE ROUTINES
**   pgcat__pg_trigger, pgcat__pg_policy, pgcat__pg_statistic_ext,
**   pgcat__pg_publication, pgcat__pg_publication_namespace,
**   pgcat__pg_publication_rel          (vrel definitions)
*/
#include "pgcatInt.h"

static int pgcat_none_scan(func_ctx *pCtx, vrel_row_fn xRow, void *pArg, sql_error *pErr) {
  (void)pCtx, (void)xRow, (void)pArg, (void)pErr;
  return 0;
}

static const vrel_col vrel_aPgTrigger[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"tgrelid", VT(COLTYPE_OID), 1},
    {"tgparentid", VT(COLTYPE_OID), 1}, {"tgname", VT(COLTYPE_NAME), 1},
    {"tgfoid", VT(COLTYPE_OID), 1}, {"tgtype", VT(COLTYPE_SMALLINT), 1},
    {"tgenabled", VT(COLTYPE_PGCHAR), 1}, {"tgisinternal", VT(COLTYPE_BOOLEAN), 1},
    {"tgconstrrelid", VT(COLTYPE_OID), 1}, {"tgconstrindid", VT(COLTYPE_OID), 1},
    {"tgconstraint", VT(COLTYPE_OID), 1}, {"tgdeferrable", VT(COLTYPE_BOOLEAN), 1},
    {"tginitdeferred", VT(COLTYPE_BOOLEAN), 1}, {"tgnargs", VT(COLTYPE_SMALLINT), 1},
    {"tgattr", VT(COLTYPE_INT2VECTOR), 1}, {"tgargs", VT(COLTYPE_BYTEA), 1},
    {"tgqual", VT(COLTYPE_PG_NODE_TREE), 0}, {"tgoldtable", VT(COLTYPE_NAME), 0},
    {"tgnewtable", VT(COLTYPE_NAME), 0},
};
const vrel pgcat__pg_trigger = {"pg_catalog", "pg_trigger", 2620, 'r',
    PGCAT_COLS(vrel_aPgTrigger), 0, pgcat_none_scan};

static const vrel_col vrel_aPgPolicy[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"polname", VT(COLTYPE_NAME), 1},
    {"polrelid", VT(COLTYPE_OID), 1}, {"polcmd", VT(COLTYPE_PGCHAR), 1},
    {"polpermissive", VT(COLTYPE_BOOLEAN), 1}, {"polroles", VT_ARRAY(COLTYPE_OID), 1},
    {"polqual", VT(COLTYPE_PG_NODE_TREE), 0}, {"polwithcheck", VT(COLTYPE_PG_NODE_TREE), 0},
};
const vrel pgcat__pg_policy = {"pg_catalog", "pg_policy", 3256, 'r',
    PGCAT_COLS(vrel_aPgPolicy), 0, pgcat_none_scan};

static const vrel_col vrel_aPgStatisticExt[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"stxrelid", VT(COLTYPE_OID), 1},
    {"stxname", VT(COLTYPE_NAME), 1}, {"stxnamespace", VT(COLTYPE_OID), 1},
    {"stxowner", VT(COLTYPE_OID), 1}, {"stxstattarget", VT(COLTYPE_INTEGER), 1},
    {"stxkeys", VT(COLTYPE_INT2VECTOR), 1}, {"stxkind", VT_ARRAY(COLTYPE_PGCHAR), 1},
    {"stxexprs", VT(COLTYPE_PG_NODE_TREE), 0},
};
const vrel pgcat__pg_statistic_ext = {"pg_catalog", "pg_statistic_ext", 3381, 'r',
    PGCAT_COLS(vrel_aPgStatisticExt), 0, pgcat_none_scan};

static const vrel_col vrel_aPgPublication[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"pubname", VT(COLTYPE_NAME), 1},
    {"pubowner", VT(COLTYPE_OID), 1}, {"puballtables", VT(COLTYPE_BOOLEAN), 1},
    {"pubinsert", VT(COLTYPE_BOOLEAN), 1}, {"pubupdate", VT(COLTYPE_BOOLEAN), 1},
    {"pubdelete", VT(COLTYPE_BOOLEAN), 1}, {"pubtruncate", VT(COLTYPE_BOOLEAN), 1},
    {"pubviaroot", VT(COLTYPE_BOOLEAN), 1},
};
const vrel pgcat__pg_publication = {"pg_catalog", "pg_publication", 6104, 'r',
    PGCAT_COLS(vrel_aPgPublication), 0, pgcat_none_scan};

static const vrel_col vrel_aPgPublicationNamespace[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"pnpubid", VT(COLTYPE_OID), 1}, {"pnnspid", VT(COLTYPE_OID), 1},
};
const vrel pgcat__pg_publication_namespace = {"pg_catalog", "pg_publication_namespace", 6237, 'r',
    PGCAT_COLS(vrel_aPgPublicationNamespace), 0, pgcat_none_scan};

static const vrel_col vrel_aPgPublicationRel[] = {
    {"oid", VT(COLTYPE_OID), 1}, {"prpubid", VT(COLTYPE_OID), 1}, {"prrelid", VT(COLTYPE_OID), 1},
    {"prqual", VT(COLTYPE_PG_NODE_TREE), 0}, {"prattrs", VT(COLTYPE_INT2VECTOR), 0},
};
const vrel pgcat__pg_publication_rel = {"pg_catalog", "pg_publication_rel", 6106, 'r',
    PGCAT_COLS(vrel_aPgPublicationRel), 0, pgcat_none_scan};
