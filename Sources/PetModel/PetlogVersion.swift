/// The version of petlog this source carries: `petlog --version` prints it and `make deb` packages it,
/// so a build from a tarball (no git) says the same as one from a checkout. Raise it with each release.
public enum PetlogVersion {
    public static let current = "0.5.0"
}
