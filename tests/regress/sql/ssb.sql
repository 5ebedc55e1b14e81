-- The 13 queries of the Star Schema Benchmark, from ssb-data/queries/.
\i ../../../ssb-data/queries/q1.1.sql
\i ../../../ssb-data/queries/q1.2.sql
\i ../../../ssb-data/queries/q1.3.sql
\i ../../../ssb-data/queries/q2.1.sql
\i ../../../ssb-data/queries/q2.2.sql
\i ../../../ssb-data/queries/q2.3.sql
\i ../../../ssb-data/queries/q3.1.sql
\i ../../../ssb-data/queries/q3.2.sql
\i ../../../ssb-data/queries/q3.3.sql
\i ../../../ssb-data/queries/q3.4.sql
\i ../../../ssb-data/queries/q4.1.sql
\i ../../../ssb-data/queries/q4.2.sql
\i ../../../ssb-data/queries/q4.3.sql
