# Install: the headers, pkg-config files and CMake package config, for
# programs built outside this tree. docs/install.md says how to use them.
#
#   make install   [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]   (the same values)
#   make test-install   install into a scratch prefix, build and run small
#                       consumers through pkg-config, find_package,
#                       add_subdirectory and FetchContent, uninstall, and
#                       check nothing is left (tests/install/run.sh; part
#                       of `make check`)
#
# Layout under $(DESTDIR)$(PREFIX) (CMakeLists.txt installs the same, from
# the same templates):
#   include/skiplist/        skiplist.h skiplist_sched.h skiplist_rcu.h
#   share/pkgconfig/         skiplist.pc, skiplist-rcu.pc (memb flavor),
#                            skiplist-rcu-{mb,qsbr,bp}.pc
#   share/cmake/skiplist/    skiplist-config.cmake, -config-version.cmake,
#                            skiplist-rcu.cmake
# The headers get a directory of their own: "skiplist.h" alone in include/
# is a name another package could own. pkg-config and CMake add that
# directory to the include path, so sources keep #include "skiplist.h".
# The pkg-config files name PREFIX (not DESTDIR): DESTDIR is a staging
# directory whose contents end up under PREFIX.

INSTALL_VERSION := $(shell sed -n \
    's/^\#define SKIPLIST_VERSION_STRING "\([0-9.]*\)"$$/\1/p' skiplist.h)
INSTALL_INC     := $(PREFIX)/include/skiplist
INSTALL_PC      := $(PREFIX)/share/pkgconfig
INSTALL_CMAKE   := $(PREFIX)/share/cmake/skiplist
INSTALL_PC_FILES := skiplist.pc skiplist-rcu.pc skiplist-rcu-mb.pc \
                    skiplist-rcu-qsbr.pc skiplist-rcu-bp.pc
INSTALL_CMAKE_FILES := skiplist-config.cmake skiplist-config-version.cmake \
                       skiplist-rcu.cmake

# Fills a template straight into its destination (nothing is written in
# the tree, so `sudo make install` leaves no root-owned files behind), by
# the same @NAME@ substitution CMake's configure_file(@ONLY) does.
# $(1): template, $(2): destination, $(3): more sed expressions.
install_fill = echo "fill $(strip $(1)) -> $(strip $(2))" && sed -e 's|@VERSION@|$(INSTALL_VERSION)|g' \
    -e 's|@prefix@|$(PREFIX)|g' \
    -e 's|@includedir@|$${prefix}/include/skiplist|g' $(3) $(1) > $(2) && \
    chmod 644 $(2)

# The rcu pkg-config files, one per liburcu flavor: memb ($(1) empty) has
# no suffix, no define and liburcu's own module (liburcu); mb, qsbr and bp
# a suffix, a -DSKIPLIST_RCU_<FLAVOR> and liburcu-<flavor>.
pc_rcu_sed = -e 's|@PC_SUFFIX@|$(if $(1),-$(1))|g' \
    -e 's|@FLAVOR@|$(or $(1),memb)|g' \
    -e 's|@URCU_MODULE@|liburcu$(if $(1),-$(1))|g' \
    -e 's|@RCU_CFLAGS@|$(if $(1), -DSKIPLIST_RCU_$(2))|g'
install_rcu_pc = $(call install_fill,skiplist-rcu.pc.in,\
    $(DESTDIR)$(INSTALL_PC)/skiplist-rcu$(if $(1),-$(1)).pc,\
    $(call pc_rcu_sed,$(1),$(2)))

install:
	@test -n "$(INSTALL_VERSION)" || \
	    { echo "install: no SKIPLIST_VERSION_STRING in skiplist.h" >&2; \
	      exit 1; }
	install -d $(DESTDIR)$(INSTALL_INC) $(DESTDIR)$(INSTALL_PC) \
	    $(DESTDIR)$(INSTALL_CMAKE)
	install -m 644 $(HEADERS) $(DESTDIR)$(INSTALL_INC)/
	@$(call install_fill,skiplist.pc.in,$(DESTDIR)$(INSTALL_PC)/skiplist.pc)
	@$(call install_rcu_pc,,)
	@$(call install_rcu_pc,mb,MB)
	@$(call install_rcu_pc,qsbr,QSBR)
	@$(call install_rcu_pc,bp,BP)
	@$(call install_fill,cmake/skiplist-config.cmake.in,\
	    $(DESTDIR)$(INSTALL_CMAKE)/skiplist-config.cmake)
	@$(call install_fill,cmake/skiplist-config-version.cmake.in,\
	    $(DESTDIR)$(INSTALL_CMAKE)/skiplist-config-version.cmake)
	install -m 644 cmake/skiplist-rcu.cmake $(DESTDIR)$(INSTALL_CMAKE)/

# Removes exactly the files install writes, then the two directories that
# are skiplist's own when nothing else is left in them. include/,
# share/pkgconfig and share/cmake are shared with other packages: they stay.
uninstall:
	rm -f $(HEADERS:%=$(DESTDIR)$(INSTALL_INC)/%) \
	    $(INSTALL_PC_FILES:%=$(DESTDIR)$(INSTALL_PC)/%) \
	    $(INSTALL_CMAKE_FILES:%=$(DESTDIR)$(INSTALL_CMAKE)/%)
	@for d in $(DESTDIR)$(INSTALL_INC) $(DESTDIR)$(INSTALL_CMAKE); do \
	    if [ -d "$$d" ]; then rmdir "$$d" || \
	        echo "uninstall: $$d kept (not empty)"; fi; \
	done
	@# The shared directories install may have created go too, but only
	@# when nothing else lives in them (rmdir refuses a non-empty one).
	@for d in $(DESTDIR)$(INSTALL_PC) $(DESTDIR)$(PREFIX)/share/cmake \
	          $(DESTDIR)$(PREFIX)/share $(DESTDIR)$(PREFIX)/include; do \
	    [ ! -d "$$d" ] || rmdir "$$d" 2>/dev/null || true; \
	done

# run.sh calls make itself; naming $(MAKE) in the recipe would make
# `make -n test` run the test, hence the indirection.
INSTALL_TEST_MAKE = $(MAKE)
test-install:
	@MAKE="$(INSTALL_TEST_MAKE)" CC="$(CC)" \
	    tests/install/run.sh "$(BUILD)/test-install"

CHECK_PARTS    += install=test-install
CHECK_DEPS     += cmake

.PHONY: install uninstall test-install
