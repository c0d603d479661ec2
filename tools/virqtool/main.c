/* SPDX-License-Identifier: MIT */
#include "virqtool.h"

int main(int argc, char **argv)
{
	return virqtool_main(argc, argv);
}
