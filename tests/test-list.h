/*
** tests/test-list.h — every C test of the project, and the runner's hints.
** Adding a test is one line X(name, seconds) in its folder's section: the
** name is the test's TEST_IMPL name, seconds its time limit. The limit is
** for a busy machine (the runner runs several tests at once, and CI shares
** its cores): some ten times what the test takes alone under ASan.
**
** TEST_LIST_SLOW names the tests that take longest, so the runner starts
** them first; TEST_LIST_ALONE those that may not run beside another test.
*/
#ifndef STARQ_TEST_LIST_H
#define STARQ_TEST_LIST_H

/* ssb-data/: the generator */
#define TEST_LIST_GEN(X)                                                     \
  X(gen_calendar, 10)                                                        \
  X(gen_scale, 10)                                                           \
  X(gen_rand, 10)                                                            \
  X(gen_flags_bad, 60)                                                       \
  X(gen_deterministic, 120)                                                  \
  X(gen_interrupted, 120)                                                    \
  X(gen_data_sf001, 120)                                                     \
  X(gen_data_sf01, 300)                                                      \
  X(gen_data_sf1, 900)

/* common/: shared types */
#define TEST_LIST_COMMON(X)                                                  \
  X(coltype_names, 10)                                                       \
  X(pipeline_order, 60)                                                      \
  X(pipeline_errors, 60)                                                     \
  X(cli_parse, 10)                                                           \
  X(fsdir_trees, 10)                                                         \
  X(hash128_murmur3, 10)                                                     \
  X(log_format, 10)                                                          \
  X(log_levels, 10)                                                          \
  X(log_threads, 120)                                                        \
  X(strbuf_double_text, 10)                                                  \
  X(json_escape, 30)                                                         \
  X(json_writer, 10)                                                         \
  X(json_read, 10)                                                           \
  X(json_read_errors, 10)                                                    \
  X(value_int, 10)                                                           \
  X(value_decimal, 10)                                                       \
  X(value_double, 10)                                                        \
  X(value_date, 10)                                                          \
  X(value_str, 10)                                                           \
  X(numeric_edges, 10)                                                       \
  X(numeric_pg, 300)                                                         \
  X(numeric_pg_tochar, 300)                                                  \
  X(datetime_calendar, 60)                                                   \
  X(datetime_edges, 10)                                                      \
  X(tz_zones, 10)                                                            \
  X(tz_threads, 60)                                                          \
  X(datetime_pg_wire, 300)                                                   \
  X(datetime_pg_text, 300)                                                   \
  X(datetime_pg_interval, 300)                                               \
  X(datetime_pg_arith, 300)                                                  \
  X(datetime_pg_fields, 300)                                                 \
  X(datetime_pg_tochar, 300)

/* storage/: column files, dictionaries, bitmaps, statistics */
#define TEST_LIST_STORE(X)                                                   \
  X(store_roundtrip, 60)                                                     \
  X(store_write_threads, 30)                                                 \
  X(store_validity, 10)                                                      \
  X(store_seal_abort, 10)                                                    \
  X(store_header_errors, 10)                                                 \
  X(store_dict, 10)                                                          \
  X(store_dict_bad, 10)                                                      \
  X(store_dict_shared, 30)                                                   \
  X(store_strset_dedup, 10)                                                  \
  X(store_strset_sort, 60)                                                   \
  X(store_for_roundtrip, 60)                                                 \
  X(store_for_choice, 10)                                                    \
  X(store_for_corrupt, 10)                                                   \
  X(store_for_dates, 60)                                                     \
  X(store_for_date_choice, 10)                                               \
  X(store_for_runs, 30)                                                      \
  X(store_for_runs_corrupt, 10)                                              \
  X(stats_numeric, 10)                                                       \
  X(stats_double, 10)                                                        \
  X(stats_hll, 60)                                                           \
  X(stats_merge, 10)                                                         \
  X(stats_codes, 10)                                                         \
  X(stats_runs, 10)

/* catalog/: the SQLite catalog */
#define TEST_LIST_CAT(X)                                                     \
  X(cat_create_get, 30)                                                      \
  X(cat_names, 30)                                                           \
  X(cat_errors, 30)                                                          \
  X(cat_drop, 30)                                                            \
  X(cat_migrate_fresh, 30)                                                   \
  X(cat_migrate_newer, 30)                                                   \
  X(cat_not_sqlite, 30)                                                      \
  X(cat_foreign_sqlite, 30)                                                  \
  X(cat_stats_roundtrip, 30)                                                 \
  X(cat_gen_commit, 30)                                                      \
  X(cat_gen_numbers, 30)                                                     \
  X(cat_gen_orphans, 30)                                                     \
  X(cat_gen_crash, 30)                                                       \
  X(cat_cache_coherent, 30)                                                  \
  X(cat_cache_stats, 30)                                                     \
  X(cat_cache_generation, 30)                                                \
  X(cat_migrate_v1, 30)                                                      \
  X(cat_migrate_v3, 30)

/* loader/: batches, text formats, loads */
#define TEST_LIST_LOAD(X)                                                    \
  X(load_batch_rows, 10)                                                     \
  X(load_tbl_parse, 10)                                                      \
  X(load_tbl_errors, 10)                                                     \
  X(load_csv_parse, 10)                                                      \
  X(load_csv_errors, 10)                                                     \
  X(load_split_tbl, 30)                                                      \
  X(load_split_csv, 30)                                                      \
  X(load_error_text, 10)

/* parser/: lexer, grammar, parse trees */
#define TEST_LIST_PARSE(X)                                                   \
  X(parse_tokens, 10)                                                        \
  X(parse_select, 10)                                                        \
  X(parse_precedence, 10)                                                    \
  X(parse_literals, 10)                                                      \
  X(parse_names, 10)                                                         \
  X(parse_ddl, 10)                                                           \
  X(parse_utility, 10)                                                       \
  X(parse_script, 10)                                                        \
  X(parse_ssb, 10)                                                           \
  X(parse_walk_columns, 10)                                                  \
  X(parse_from, 10)                                                          \
  X(parse_with, 10)                                                          \
  X(parse_setops, 10)                                                        \
  X(parse_subqueries, 10)                                                    \
  X(parse_windows, 10)                                                       \
  X(parse_aggregates, 10)                                                    \
  X(parse_grouping, 10)                                                      \
  X(parse_limit, 10)                                                         \
  X(parse_deparse, 10)                                                       \
  X(parse_operators, 10)                                                     \
  X(parse_chains, 10)                                                        \
  X(parse_special_funcs, 10)                                                 \
  X(parse_types, 10)                                                         \
  X(parse_arrays, 10)                                                        \
  X(parse_strings, 10)                                                       \
  X(parse_keywords, 10)                                                      \
  X(parse_copy, 10)                                                          \
  X(parse_session, 10)                                                       \
  X(parse_transactions, 10)                                                  \
  X(parse_cursors, 10)                                                       \
  X(parse_errors_syntax, 10)                                                 \
  X(parse_errors_lex, 10)                                                    \
  X(parse_errors_unsupported, 10)                                            \
  X(parse_errors_options, 10)                                                \
  X(parse_limits, 60)

/* planner/: the binder */
#define TEST_LIST_BIND(X)                                                    \
  X(bind_ssb_queries, 30)                                                    \
  X(bind_ssb_q11_detail, 10)                                                 \
  X(bind_types_arith, 30)                                                    \
  X(bind_types_agg, 30)                                                      \
  X(bind_types_predicates, 30)                                               \
  X(bind_output_names, 30)                                                   \
  X(bind_star, 10)                                                           \
  X(bind_scopes, 10)                                                         \
  X(bind_limit_offset, 10)                                                   \
  X(bind_odd_trees, 10)                                                      \
  X(bind_errors, 60)                                                         \
  X(bind_errors_reuse, 10)                                                   \
  X(bind_errors_unsupported, 10)                                             \
  X(bind_new_syntax, 30)                                                     \
  X(bind_create_table, 30)                                                   \
  X(bind_create_table_errors, 30)                                            \
  X(bind_copy, 30)                                                           \
  X(bind_ssb_timing, 120)

/* planner/: optimizer decisions (predicate order, group-by strategy) */
#define TEST_LIST_PLAN(X)                                                    \
  X(plan_ssb_all, 60)                                                        \
  X(plan_ssb_exact, 60)                                                      \
  X(plan_ssb_probe_order, 60)                                                \
  X(plan_forced_order, 120)                                                  \
  X(plan_semijoin_bits, 60)                                                  \
  X(plan_single_table, 60)                                                   \
  X(plan_count_in_sum, 60)                                                   \
  X(plan_hash_join, 60)                                                      \
  X(plan_sparse_key, 60)                                                     \
  X(plan_residual, 60)                                                       \
  X(plan_refused, 60)                                                        \
  X(plan_codeset_forms, 60)                                                  \
  X(plan_estimate_numbers, 60)                                               \
  X(plan_given_model, 60)                                                    \
  X(plan_resident_plain_bytes, 60)                                           \
  X(predorder_rank, 10)                                                      \
  X(predorder_probe_order, 10)                                               \
  X(predorder_pair_sweep, 10)                                                \
  X(predorder_fig2_four, 10)                                                 \
  X(predorder_multi_kernel, 10)                                              \
  X(predorder_cost_formula, 10)                                              \
  X(predorder_dp_brute, 60)                                                  \
  X(predorder_fallback, 10)                                                  \
  X(predorder_explain, 10)                                                   \
  X(predorder_errors, 10)                                                    \
  X(predorder_orders, 10)                                                    \
  X(predorder_runs, 10)                                                      \
  X(groupby_device, 10)                                                      \
  X(groupby_dense_bound, 10)                                                 \
  X(groupby_thread_vs_shared, 10)                                            \
  X(groupby_shared_vs_global, 10)                                            \
  X(groupby_sizes, 10)                                                       \
  X(groupby_key_width, 10)                                                   \
  X(groupby_errors, 10)                                                      \
  X(groupby_overflow, 10)                                                    \
  X(groupby_ssb, 10)                                                         \
  X(groupby_explain, 10)                                                     \
  X(groupby_hot_skew, 10)                                                    \
  X(groupby_hot_budget, 10)                                                  \
  X(groupby_hot_explain, 10)                                                 \
  X(model_defaults, 10)                                                      \
  X(model_names, 10)                                                         \
  X(model_bad_value, 10)                                                     \
  X(model_describe, 10)

/* runtime/: the CPU backend (kernels compiled by cc, run on a thread pool)
** and the CUDA backend's host side (no GPU: a missing driver, a mock one) */
#define TEST_LIST_RUNTIME(X)                                                 \
  X(runtime_cpu_atomics, 120)                                                \
  X(runtime_cpu_shared, 120)                                                 \
  X(runtime_cpu_builtins, 60)                                                \
  X(runtime_cpu_shared_private, 60)                                          \
  X(runtime_cpu_launch_threads, 60)                                          \
  X(runtime_cpu_cache, 60)                                                   \
  X(runtime_cpu_cache_damaged, 60)                                           \
  X(runtime_cpu_errors, 60)                                                  \
  X(runtime_cpu_cache_concurrent, 120)                                       \
  X(runtime_cpu_compile_stop, 120)                                           \
  X(runtime_cpu_launch_cancel, 60)                                           \
  X(runtime_cuda_absent, 120)                                                \
  X(runtime_cuda_mock, 600)                                                  \
  X(runtime_cuda_mock_errors, 300)                                           \
  X(runtime_cuda_async, 120)                                                 \
  X(runtime_cuda_occupancy, 120)                                             \
  X(runtime_cuda_recover, 120)                                               \
  X(runtime_cuda_recover_wait, 120)                                          \
  X(runtime_cuda_sticky, 120)                                                \
  X(runtime_cuda_compile_log, 120)                                           \
  X(runtime_cuda_compile_only, 120)                                          \
  X(runtime_cuda_background, 300)                                            \
  X(runtime_cuda_background_recover, 300)                                    \
  X(runtime_cuda_known, 300)                                                 \
  X(runtime_cuda_known_paths, 60)                                            \
  X(runtime_cuda_cache_format, 120)

/* loader/ and ssb-data/ together: whole loads through starq-load and
** starq-gen --format store */
#define TEST_LIST_LOAD_E2E(X)                                                \
  X(load_types_append, 60)                                                   \
  X(load_append_compressed, 60)                                              \
  X(load_compress_bad_flag, 30)                                              \
  X(load_nulls_unaligned, 60)                                                \
  X(load_bad_input, 120)                                                     \
  X(load_dbgen_sample, 60)                                                   \
  X(load_ssb_sf001, 120)                                                     \
  X(load_store_equals_tbl, 120)                                              \
  X(load_kill_midway, 600)                                                   \
  X(load_ssb_sf1, 900)

/* tests/refdb*.c: the SQLite reference engine that results are checked
** against; tests/pgref.c: the PostgreSQL 15 reference server */
#define TEST_LIST_REF(X)                                                     \
  X(refdb_result_build, 10)                                                  \
  X(refdb_result_compare, 10)                                                \
  X(refdb_result_tolerance, 10)                                              \
  X(refdb_translate, 10)                                                     \
  X(refdb_types, 60)                                                         \
  X(refdb_errors, 60)                                                        \
  X(refdb_ssb_sf001, 120)                                                    \
  X(pgref_start_stop, 300)                                                   \
  X(pgref_killed_test, 300)                                                  \
  X(pgref_ssb_load, 600)                                                     \
  X(pgcat_builtin_pg, 300)                                                   \
  X(pgcat_tables_pg, 300)                                                    \
  X(pgcat_functions_pg, 300)

/* server/: the PostgreSQL protocol (framing, codecs, SCRAM, the session
** state machine on a fake engine, psql against it) and the status port
** (HTTP parser, routes, metrics, status JSON, the libuv listener, the
** dashboard in headless Chromium) */
#define TEST_LIST_SERVER(X)                                                  \
  X(pool_fair_order, 60)                                                    \
  X(stmt_cost_means, 10)                                                     \
  X(pgwire_frame_chunks, 30)                                                 \
  X(pgwire_frame_errors, 10)                                                 \
  X(pgwire_decode_errors, 10)                                                \
  X(pgwire_decode_fields, 10)                                                \
  X(pgwire_encode, 10)                                                       \
  X(pgwire_binary, 10)                                                       \
  X(scram_rfc7677, 10)                                                       \
  X(scram_verifier, 30)                                                      \
  X(scram_errors, 10)                                                        \
  X(scram_channel_binding, 10)                                               \
  X(session_startup_trust, 10)                                               \
  X(session_startup_scram, 30)                                               \
  X(session_startup_errors, 10)                                              \
  X(session_ssl_cancel, 10)                                                  \
  X(session_simple_multi, 10)                                                \
  X(session_simple_empty, 10)                                                \
  X(session_txn_status, 10)                                                  \
  X(session_oversized, 10)                                                   \
  X(session_hostile, 30)                                                     \
  X(session_libpq_startup, 10)                                               \
  X(session_extended, 10)                                                    \
  X(session_suspend, 10)                                                     \
  X(session_skip_to_sync, 10)                                                \
  X(session_binary, 10)                                                      \
  X(session_close_flush, 10)                                                 \
  X(session_copy_in, 10)                                                     \
  X(session_backpressure, 30)                                                \
  X(session_pipeline_async, 10)                                              \
  X(session_psql, 60)                                                        \
  X(http_parse_request, 10)                                                  \
  X(http_parse_keepalive, 10)                                                \
  X(http_parse_pipeline, 10)                                                 \
  X(http_parse_errors, 10)                                                   \
  X(http_parse_limits, 10)                                                   \
  X(http_response_framing, 10)                                               \
  X(http_routes, 10)                                                         \
  X(metrics_render_format, 10)                                               \
  X(metrics_register_errors, 10)                                             \
  X(metrics_threads, 60)                                                     \
  X(metrics_starq_families, 10)                                              \
  X(status_json, 10)                                                         \
  X(status_recent_threads, 60)                                               \
  X(http_conn_serve, 60)                                                     \
  X(http_conn_limits, 60)                                                    \
  X(http_dashboard_chromium, 120)                                            \
  X(daemon_flags, 30)                                                        \
  X(daemon_queries, 300)                                                     \
  X(daemon_status, 120)                                                      \
  X(daemon_sigterm, 120)                                                     \
  X(daemon_cancel, 120)                                                      \
  X(daemon_limits, 120)                                                      \
  X(daemon_concurrent, 300)                                                  \
  X(daemon_sessions, 120)                                                    \
  X(daemon_psql, 120)                                                        \
  X(psql_describe, 300)                                                      \
  X(daemon_session_pg, 300)                                                  \
  X(daemon_worker_restart, 120)                                              \
  X(daemon_last_query, 120)                                                  \
  X(daemon_worker_cancel, 120)                                               \
  X(daemon_nvrtc_abandon, 180)                                               \
  X(auth_file_parse, 10)                                                     \
  X(auth_hash_password, 30)                                                  \
  X(daemon_auth_scram, 120)                                                  \
  X(daemon_auth_policies, 120)                                               \
  X(daemon_auth_bad_files, 60)                                               \
  X(daemon_log_lines, 120)                                                   \
  X(daemon_start_window, 120)                                                \
  X(daemon_device_warm, 120)                                                 \
  X(daemon_slow_reader, 300)                                                 \
  X(daemon_stream, 300)                                                      \
  X(daemon_copy_to, 300)                                                     \
  X(daemon_cursors, 300)                                                     \
  X(daemon_arrays_pg, 300)                                                   \
  X(daemon_kill_leftovers, 300)                                              \
  X(daemon_slow_loris, 300)                                                  \
  X(daemon_status_private, 120)                                              \
  X(daemon_utf8_input, 120)                                                  \
  X(daemon_copy_spool_sweep, 120)                                            \
  X(daemon_copy_disk_full, 120)                                              \
  X(daemon_tls, 120)                                                         \
  X(daemon_tls_jdbc, 120)                                                    \
  X(clients_sqlalchemy, 300)                                                 \
  X(clients_jdbc, 300)                                                       \
  X(clients_psycopg, 300)                                                    \
  X(clients_node, 300)                                                       \
  X(daemon_dashboard_chromium, 120)

#define TEST_LIST(X)                                                         \
  TEST_LIST_GEN(X) TEST_LIST_COMMON(X) TEST_LIST_STORE(X) TEST_LIST_CAT(X)   \
  TEST_LIST_LOAD(X) TEST_LIST_LOAD_E2E(X) TEST_LIST_PARSE(X) TEST_LIST_BIND(X) \
  TEST_LIST_PLAN(X) TEST_LIST_RUNTIME(X) TEST_LIST_REF(X) TEST_LIST_EXEC(X)  \
  TEST_LIST_ENGINE(X) TEST_LIST_SERVER(X) TEST_LIST_WORKER(X) TEST_LIST_CLIENTS(X) \
  TEST_LIST_REGRESS(X)

/* tests/regress/: SQL files run by psql against starqd and PostgreSQL 15,
** both diffed against the expected output PostgreSQL wrote */
#define TEST_LIST_REGRESS(X)                                                 \
  X(regress, 900)

/* engine/: prepared statements, parameters, DESCRIBE, EXPLAIN */
#define TEST_LIST_ENGINE(X)                                                  \
  X(engine_stmt_cache, 300)                                                  \
  X(engine_stmt_evict, 300)                                                  \
  X(engine_params, 300)                                                      \
  X(engine_describe_explain, 300)                                            \
  X(engine_explain_options, 300)                                             \
  X(setop_pg, 900)                                                           \
  X(setop_explain, 300)                                                      \
  X(derived_pg, 900)                                                         \
  X(relational_starqd, 900)                                                  \
  X(session_funcs_pg, 300)                                                   \
  X(host_pg, 600)

/* codegen/ + runtime/: whole queries against SQLite, CPU backend */
#define TEST_LIST_EXEC(X)                                                    \
  X(explain_ssb_verbose, 120)                                                \
  X(codegen_literals_are_parameters, 60)                                     \
  X(codegen_resident_launch_bounds, 60)                                      \
  X(exec_edges, 300)                                                         \
  X(exec_expr_pg, 300)                                                       \
  X(exec_expr_pg_generic, 300)                                               \
  X(exec_expr_pg_mock, 300)                                                  \
  X(exec_in_lists, 300)                                                      \
  X(exec_long_chains, 600)                                                   \
  X(exec_group_table_grows, 120)                                             \
  X(exec_missing_files, 120)                                                 \
  X(exec_rows_grow, 300)                                                     \
  X(exec_literals_shared, 60)                                                \
  X(exec_ssb_sf005, 600)                                                     \
  X(exec_ssb_sf02, 900)                                                      \
  X(exec_random, 900)                                                        \
  X(exec_nulls, 600)                                                         \
  X(exec_nulls_resident, 120)                                                \
  X(exec_null_errors, 60)                                                    \
  X(exec_skew_groupby, 300)                                                  \
  X(exec_skew_groupby_mock, 300)                                             \
  X(exec_semijoin, 120)                                                      \
  X(exec_semijoin_mock, 120)                                                 \
  X(exec_streamed, 600)                                                      \
  X(exec_streamed_mixed, 120)                                                \
  X(exec_streamed_for, 300)                                                  \
  X(exec_for_dates, 120)                                                     \
  X(exec_for_paths, 600)                                                     \
  X(for_decode_layouts, 120)                                                 \
  X(vec_load_layouts, 60)                                                    \
  X(probe_32bit_edges, 60)                                                   \
  X(exec_streamed_dims_over_budget, 60)                                      \
  X(exec_resident_evicts, 120)                                               \
  X(exec_device_oom, 120)                                                    \
  X(colmem_resident_plain, 120)                                              \
  X(colmem_resident_host_decode, 120)                                        \
  X(colmem_dir_copies, 300)                                                  \
  X(exec_resident_plain, 300)                                                \
  X(exec_resident_mixed, 600)                                                \
  X(exec_stride_pool_too_small, 60)                                          \
  X(exec_cuda_concurrent, 600)                                               \
  X(exec_cuda_concurrent_fault, 600)                                         \
  X(exec_cuda_outputs_one_wait, 300)                                         \
  X(exec_shared_scans, 600)                                                  \
  X(exec_shared_scans_mock, 600)                                             \
  X(colmem_load_once, 120)                                                   \
  X(exec_generic_ssb, 600)                                                   \
  X(exec_generic_random, 900)                                                \
  X(exec_generic_nulls, 300)                                                 \
  X(exec_generic_null_errors, 60)                                            \
  X(exec_generic_resident, 120)                                              \
  X(exec_generic_semijoin, 120)                                              \
  X(exec_generic_skew, 300)                                                  \
  X(exec_generic_streamed, 300)                                              \
  X(exec_generic_grows, 120)                                                 \
  X(exec_generic_rows_grow, 300)                                             \
  X(exec_generic_first_run, 300)                                             \
  X(exec_generic_first_run_cpu, 300)                                         \
  X(exec_generic_not_ready, 120)                                             \
  X(exec_generic_not_ready_cpu, 120)

/* worker/: the device worker process and its supervisor, and their wire */
#define TEST_LIST_WORKER(X)                                                  \
  X(worker_wire_roundtrip, 120)                                              \
  X(worker_wire_bad_bodies, 120)                                             \
  X(worker_wire_frames, 60)                                                  \
  X(worker_ssb, 600)                                                         \
  X(worker_errors, 300)                                                      \
  X(worker_concurrent, 600)                                                  \
  X(worker_spin, 900)                                                        \
  X(worker_device_warm, 300)                                                 \
  X(worker_killed, 300)                                                      \
  X(worker_gpu_lost, 600)                                                    \
  X(worker_test_fault, 600)                                                  \
  X(worker_restart_backoff, 300)                                             \
  X(worker_orphan, 120)                                                      \
  X(worker_wire_stats, 60)                                                   \
  X(worker_stats_tables, 120)                                                \
  X(worker_stats_cuda, 300)                                                  \
  X(worker_cancel, 120)

/* clients/: starq-bench (its pieces, a fake server with GPU figures, and
** a live starqd with SQLite's answers); starq, the psql-like client (its
** splitter and error lines alone, then the program against a live starqd,
** compared with psql) */
#define TEST_LIST_CLIENTS(X)                                                 \
  X(bench_units, 10)                                                         \
  X(bench_floors, 60)                                                        \
  X(bench_flags, 60)                                                         \
  X(bench_ssb_formats, 300)                                                  \
  X(bench_verify_sqlite, 300)                                                \
  X(bench_mix, 300)                                                          \
  X(starq_split_statements, 10)                                              \
  X(starq_split_prompt, 10)                                                  \
  X(starq_error_caret, 10)                                                   \
  X(starq_cli_exit_codes, 60)                                                \
  X(starq_cli_output, 300)                                                   \
  X(starq_cli_scripts, 300)                                                  \
  X(starq_cli_explain_status, 300)                                           \
  X(starq_cli_interactive, 120)

/* The slowest tests and about how many seconds each takes under ASan in a
** whole run, two at a time on a 2-core machine: the runner starts them
** first, longest first, so the run does not end waiting on one long test
** that started last. A test that takes more than a few seconds belongs
** here; the figures need only be right in their order. */
#define TEST_LIST_SLOW(X)                                                    \
  X(exec_random, 140)                                                        \
  X(load_ssb_sf1, 61)                                                        \
  X(exec_generic_random, 53)                                                 \
  X(runtime_cuda_mock, 37)                                                   \
  X(exec_nulls, 34)                                                          \
  X(load_kill_midway, 30)                                                    \
  X(worker_ssb, 24)                                                          \
  X(exec_for_paths, 16)                                                      \
  X(runtime_cuda_mock_errors, 15)                                            \
  X(exec_ssb_sf02, 15)                                                       \
  X(gen_data_sf1, 14)                                                        \
  X(exec_resident_mixed, 13)                                                 \
  X(daemon_start_window, 13)                                                 \
  X(colmem_dir_copies, 13)                                                   \
  X(exec_generic_skew, 13)                                                   \
  X(starq_cli_output, 12)                                                    \
  X(exec_cuda_concurrent_fault, 11)                                          \
  X(exec_nulls_resident, 10)                                                 \
  X(daemon_slow_reader, 10)

/* Tests that may not run beside any other: none so far. A test belongs
** here only for a resource no scratch directory can separate; a race on a
** port, a path or a cache is fixed in the test. */
#define TEST_LIST_ALONE(X)

#define TEST_DECLARE(name, seconds) int test_##name(void);
TEST_LIST(TEST_DECLARE)

#endif /* STARQ_TEST_LIST_H */
