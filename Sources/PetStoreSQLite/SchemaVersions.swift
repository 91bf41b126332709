import PetStoreCore

/// The format versions a user can see: the database schema this build writes (`v1` … `v5`, also in
/// an upgraded file's backup name `….before-v5-<time>.bak`) and the export file's `"schema"` value.
public enum SchemaVersions {
    public static var database: String { Schema.currentVersion }
    public static var export: String { PetlogJSON.schema }
}
