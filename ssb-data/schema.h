/*
** ssb-data/schema.h — creating the SSB tables in a catalog.
*/
#ifndef STARQ_SSB_SCHEMA_H
#define STARQ_SSB_SCHEMA_H

#include <stddef.h>

#include "../catalog/catalog.h"
#include "ssb.h"

/* Creates whichever of the five SSB tables the catalog lacks (an existing
** table of the same name is kept as it is). Returns 0, or -1 with zErr. */
int ssb_schema_create(cat *pCat, char *zErr, size_t nErr);

#endif /* STARQ_SSB_SCHEMA_H */
