"""The settings whose value a field may give in ``sql()``: an allow-list, by review of each
engine's own list of settings (the twenty-seventh pass).

A setting's value changes what the rest of the session does with the author's own static text,
so a value may set only a setting reviewed here as data: a number, size, limit, flag, format,
time zone, encoding or name shown back, which changes no place, no code, no lookup of names
and no security switch.  Every other setting is refused, reviewed or not: one whose value is a
place (DuckDB's ``temp_directory`` wrote the author's spilled rows into the value's directory;
``file_search_path``, ``log_query_path``, ``profiling_output``), a switch of checks
(``session_replication_role = replica`` stopped the author's triggers, SQLite's
``ignore_check_constraints`` their CHECKs), a lookup of names (PostgreSQL's ``search_path``:
with one schema, a later ``lower(v)`` of a varchar ran that schema's ``lower(varchar)``),
secrets, extensions or the grammar itself.  ``tests/test_sql_twenty_seventh_pass.py`` reads
``duckdb_settings()``, PostgreSQL's ``pg_settings`` (those a session may set) and SQLite's
``pragma_pragma_list`` and fails on a name on neither list, so a new one gets reviewed.
"""

from __future__ import annotations

__all__ = ["DATA_SETTINGS", "REFUSED_SETTINGS", "SET_FORMS", "data_setting"]


def _names(*groups: str) -> frozenset[str]:
    """The names in these groups, each a string of names separated by white space."""
    return frozenset(name for group in groups for name in group.split())


DATA_SETTINGS = _names(
    # DuckDB 2.0 and 1.5: sizes, limits, thresholds, counts, flags and formats
    """
    calendar timezone access_mode allocator_background_threads
    allocator_bulk_deallocation_flush_threshold allocator_flush_threshold
    approximate_join_order_threshold arrow_large_buffer_size arrow_lossless_conversion
    arrow_output_list_view arrow_output_version asof_loop_join_threshold async_threads
    auto_checkpoint_skip_wal_threshold binary_as_string block_allocator_memory
    cache_local_files catalog_error_max_schemas checkpoint_on_detach checkpoint_threshold
    current_transaction_invalidation_policy custom_user_agent default_block_size
    default_collation default_null_order default_order
    default_transaction_invalidation_policy disable_database_invalidation
    disable_parquet_prefetching disable_timestamptz_casts disabled_compression_methods
    disabled_log_types disabled_optimizers duckdb_api dynamic_or_filter_threshold
    enable_external_file_cache enable_fsst_vectors enable_geoparquet_conversion
    enable_http_metadata_cache enable_logging enable_macro_dependencies
    enable_optimistic_write enable_optimizer enable_profiling enable_progress_bar
    enable_progress_bar_print enable_view_dependencies enabled_log_types errors_as_json
    explain_output external_file_cache_local_max_block_size
    external_file_cache_remote_max_block_size external_file_cache_remote_min_block_size
    external_file_cache_request_sizing external_file_cache_spill external_threads
    force_compression fsync_mode geometry_minimum_shredding_size http_client_pool_capacity
    http_proxy_password http_proxy_username http_retry_quota_throttled
    http_retry_throttled_wait_ms ieee_floating_point_ops ignore_unknown_crs
    immediate_transaction_mode index_scan_max_count index_scan_percentage
    initial_column_segment_size integer_division json_geometry_format
    late_materialization_max_rows logging_level logging_mode max_execution_time
    max_expression_depth max_memory max_streaming_buffer_size max_temp_directory_size
    max_vacuum_tasks memory_limit merge_join_threshold nested_loop_join_threshold null_order
    operator_memory_limit order_by_non_integer_literal ordered_aggregate_threshold
    pandas_analyze_sample parquet_can_have_nan parquet_metadata_cache
    parquet_prefetch_column_gap parquet_use_page_index partitioned_write_flush_threshold
    partitioned_write_max_open_files password perfect_ht_threshold pin_threads
    pivot_filter_threshold pivot_limit prefer_range_joins prefetch_all_parquet_files
    preserve_identifier_case preserve_insertion_order profiling_coverage
    profiling_renderer_settings progress_bar_time read_ahead_depth
    scalar_subquery_error_on_multiple_rows scheduler_process_partial show_behavior
    standard_vector_size storage_block_prefetch storage_compatibility_version
    streaming_buffer_size threads tracked_metrics user username validate_external_file_cache
    variant_minimum_shredding_size wal_autocheckpoint wal_autocheckpoint_entries
    warnings_as_errors worker_threads write_buffer_row_group_count
    write_buffer_row_group_memory_limit zstd_min_string_length
    """,
    # DuckDB 1.5 only
    """
    __delta_only_variant_encoding_enabled custom_profiling_settings
    deprecated_using_key_syntax enable_caching_operators enable_object_cache
    experimental_metadata_reuse force_bitpacking_mode force_column_metadata_reuse
    force_variant_shredding old_implicit_casting produce_arrow_string_view profiling_mode
    vacuum_rebuild_indexes
    """,
    # DuckDB's SET VARIABLE: a session variable, which only getvariable() reads
    """
    variable
    """,
    # PostgreSQL 15, contexts user and superuser: formats, costs, limits, timeouts, flags
    """
    datestyle intervalstyle application_name array_nulls backend_flush_after backslash_quote
    backtrace_functions bytea_output check_function_bodies client_connection_check_interval
    client_encoding client_min_messages commit_delay commit_siblings compute_query_id
    constraint_exclusion cpu_index_tuple_cost cpu_operator_cost cpu_tuple_cost
    cursor_tuple_fraction deadlock_timeout debug_discard_caches debug_pretty_print
    debug_print_parse debug_print_plan debug_print_rewritten default_statistics_target
    default_table_access_method default_tablespace default_text_search_config
    default_toast_compression default_transaction_deferrable default_transaction_isolation
    default_transaction_read_only effective_cache_size effective_io_concurrency
    enable_async_append enable_bitmapscan enable_gathermerge enable_hashagg enable_hashjoin
    enable_incremental_sort enable_indexonlyscan enable_indexscan enable_material
    enable_memoize enable_mergejoin enable_nestloop enable_parallel_append
    enable_parallel_hash enable_partition_pruning enable_partitionwise_aggregate
    enable_partitionwise_join enable_seqscan enable_sort enable_tidscan
    escape_string_warning exit_on_error extra_float_digits force_parallel_mode
    from_collapse_limit geqo geqo_effort geqo_generations geqo_pool_size geqo_seed
    geqo_selection_bias geqo_threshold gin_fuzzy_search_limit gin_pending_list_limit
    hash_mem_multiplier idle_in_transaction_session_timeout idle_session_timeout jit
    jit_above_cost jit_expressions jit_inline_above_cost jit_optimize_above_cost
    jit_tuple_deforming join_collapse_limit lc_messages lc_monetary lc_numeric lc_time
    lock_timeout log_parameter_max_length_on_error logical_decoding_work_mem
    maintenance_io_concurrency maintenance_work_mem max_parallel_maintenance_workers
    max_parallel_workers max_parallel_workers_per_gather min_parallel_index_scan_size
    min_parallel_table_scan_size parallel_leader_participation parallel_setup_cost
    parallel_tuple_cost password_encryption plan_cache_mode quote_all_identifiers
    random_page_cost recursive_worktable_factor seq_page_cost standard_conforming_strings
    statement_timeout stats_fetch_consistency synchronize_seqscans synchronous_commit
    tcp_keepalives_count tcp_keepalives_idle tcp_keepalives_interval tcp_user_timeout
    temp_buffers temp_file_limit temp_tablespaces timezone_abbreviations trace_notify
    trace_sort track_activities track_counts track_functions track_io_timing
    track_wal_io_timing transaction_deferrable transaction_isolation transaction_read_only
    transform_null_equals update_process_title vacuum_cost_delay vacuum_cost_limit
    vacuum_cost_page_dirty vacuum_cost_page_hit vacuum_cost_page_miss vacuum_failsafe_age
    vacuum_freeze_min_age vacuum_freeze_table_age vacuum_multixact_failsafe_age
    vacuum_multixact_freeze_min_age vacuum_multixact_freeze_table_age wal_compression
    wal_init_zero wal_recycle wal_sender_timeout wal_skip_threshold work_mem xmlbinary
    xmloption
    """,
    # PostgreSQL's hidden ones: a role or user the server lets the session become (it
    # checks membership), and SET's own forms (SET TRANSACTION, SET CONSTRAINTS)
    """
    role session_authorization transaction constraints characteristics
    """,
    # SQLite's pragmas that take a number, flag or mode
    """
    analysis_limit application_id auto_vacuum automatic_index busy_timeout cache_size
    cache_spill case_sensitive_like cell_size_check checkpoint_fullfsync count_changes
    default_cache_size defer_foreign_keys empty_result_callbacks encoding foreign_keys
    full_column_names fullfsync hard_heap_limit journal_mode journal_size_limit
    legacy_alter_table locking_mode max_page_count mmap_size page_size query_only
    read_uncommitted recursive_triggers reverse_unordered_selects secure_delete
    short_column_names soft_heap_limit synchronous temp_store user_version
    """,
)

# Reviewed and refused (besides the code settings sql.py's _CODE_SETTING names, whose
# extension switches among them): a place, a switch of checks or of security, secrets, the
# grammar.
REFUSED_SETTINGS = _names(
    # DuckDB: places the session reads, writes or spills to
    """
    temp_directory file_search_path log_query_path profile_output profiling_output
    http_logging_output enable_http_logging logging_storage logging_sink
    """,
    # Where functions, tables and Python's objects are looked up: one PostgreSQL schema
    # holding a lower(varchar) made the author's later lower(v) of a varchar column run it (an
    # exact match beats pg_catalog's lower(text)); DuckDB's search path and schema (refused
    # with _FUNCTION_SCOPE's reason, the twentieth pass)
    """
    search_path schema python_enable_replacements python_scan_all_frames
    """,
    # DuckDB: security switches and their lists, secrets' storage
    """
    allow_persistent_secrets allow_unredacted_secrets allowed_configs allowed_directories
    allowed_paths default_secret_storage disabled_filesystems enable_external_access
    lock_configuration redact_http_logs temp_file_encryption force_mbedtls_unsafe
    """,
    # DuckDB: the grammar the author's text is parsed with
    """
    current_dialect dialect_compatibility_mode lambda_syntax
    """,
    # DuckDB 1.5's test hooks (debug_checkpoint_abort stops a checkpoint half-written)
    """
    debug_asof_iejoin debug_checkpoint_abort debug_checkpoint_sleep_ms
    debug_eviction_queue_sleep_micro_seconds debug_force_external
    debug_force_no_cross_product debug_physical_table_scan_execution_strategy
    debug_skip_checkpoint_on_commit debug_verify_blocks debug_verify_vector
    debug_window_mode debug_checkpoint_scan_sleep_ms
    """,
    # PostgreSQL: lookups, switches of triggers, checks and privileges, the server's files
    # and the audit log
    """
    allow_in_place_tablespaces allow_system_table_mods ignore_checksum_failure
    zero_damaged_pages lo_compat_privileges restrict_nonsystem_relation_kind row_security
    session_replication_role jit_dump_bitcode max_stack_depth wal_consistency_checking
    log_duration log_error_verbosity log_executor_stats log_lock_waits
    log_min_duration_sample log_min_duration_statement log_min_error_statement
    log_min_messages log_parameter_max_length log_parser_stats log_planner_stats
    log_statement log_statement_sample_rate log_statement_stats log_temp_files
    log_transaction_sample_rate
    """,
    # SQLite: the schema's and checks' switches, and places
    """
    ignore_check_constraints writable_schema trusted_schema schema_version
    temp_store_directory data_store_directory
    """,
    # SQLite's pragmas that report and take no value
    """
    collation_list compile_options data_version database_list freelist_count function_list
    module_list page_count pragma_list shrink_memory
    """,
)

# SET's own spellings of a setting: PostgreSQL's SET TIME ZONE, SET NAMES, SET SCHEMA, SET
# [SESSION] AUTHORIZATION and SET XML OPTION.
SET_FORMS = {
    "time": "timezone",
    "names": "client_encoding",
    "schema": "search_path",
    "authorization": "session_authorization",
    "xml": "xmloption",
}


def data_setting(name: str, pragma: bool) -> bool:
    """Whether a value may set the setting ``name`` (lowercased, dotted words joined): one on
    the data list, or a dotted name of a SET, which PostgreSQL keeps as the application's own
    variable (``app.user``; the procedural languages' start-up settings are code settings,
    refused before this).  A PRAGMA's dotted name is a schema's pragma (``main.cache_size``)."""
    if "." in name and not pragma:
        return True
    if pragma:
        name = name.rpartition(".")[2]
    return name in DATA_SETTINGS
